package sepa

import (
	"runtime"
	"testing"
)

// countingWriter counts what is written and keeps none of it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// heapWhileWriting writes a file of n generated collections and returns
// the largest live heap seen while both passes ran (sampled after a
// collection every 5,000 collections) and the file's size.
func heapWhileWriting(t *testing.T, n int) (uint64, int64) {
	var peak uint64
	sample := func(i int) {
		if i%5000 == 0 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
		}
	}
	debits := generatedDebits(t, n, sample)
	plan, err := PlanDirectDebits(debits)
	if err != nil {
		t.Fatal(err)
	}
	var out countingWriter
	f := DirectDebitFile{MessageID: "TNR-MEM", CreatedAt: testCreated, Creditor: testHolder(t), CreditorID: testCreditorID, Scheme: Core, BatchBooking: true}
	if err := WriteDirectDebits(&out, f, plan, debits); err != nil {
		t.Fatal(err)
	}
	if plan.Count != n {
		t.Fatalf("planned %d of %d", plan.Count, n)
	}
	return peak, out.n
}

// A file ten times longer needs no more memory: the writer streams.
func TestWritingDirectDebitsKeepsMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 110,000 collections")
	}
	small, smallBytes := heapWhileWriting(t, 10_000)
	large, largeBytes := heapWhileWriting(t, 100_000)
	t.Logf("10,000 collections: %d bytes written, live heap at most %d KiB", smallBytes, small>>10)
	t.Logf("100,000 collections: %d bytes written, live heap at most %d KiB", largeBytes, large>>10)
	if largeBytes < 9*smallBytes {
		t.Fatalf("the larger file has %d bytes, the smaller %d", largeBytes, smallBytes)
	}
	// 1 MiB of slack for the runtime's own noise; holding the file or the
	// collections would take tens of MiB (the file is ~90 MB).
	if large > small+1<<20 {
		t.Errorf("the live heap grew from %d KiB to %d KiB with ten times the collections", small>>10, large>>10)
	}
}
