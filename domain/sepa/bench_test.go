package sepa

import (
	"testing"
)

// BenchmarkWriteDirectDebits100k plans and writes a pain.008 file of
// 100,000 collections (both passes, the collections generated on the fly)
// to a writer that keeps nothing. Run it with
//
//	go test -run '^$' -bench WriteDirectDebits100k -benchmem -benchtime 3x ./domain/sepa/
func BenchmarkWriteDirectDebits100k(b *testing.B) {
	const n = 100_000
	debits := generatedDebits(b, n, nil)
	f := DirectDebitFile{MessageID: "TNR-BENCH", CreatedAt: testCreated, Creditor: testHolder(b), CreditorID: testCreditorID, Scheme: Core, BatchBooking: true}
	var written int64
	for b.Loop() {
		plan, err := PlanDirectDebits(debits)
		if err != nil {
			b.Fatal(err)
		}
		var out countingWriter
		if err := WriteDirectDebits(&out, f, plan, debits); err != nil {
			b.Fatal(err)
		}
		written = out.n
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/collection")
	b.ReportMetric(float64(written)/n, "file-bytes/collection")
}
