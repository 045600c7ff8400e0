package invoices

import (
	"fmt"
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
)

// countingWriter counts what is written and keeps none of it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkIssue10kInvoices renders 10,000 invoices (four lines each), each
// as a PDF and as a CII e-invoice, in turns of the three languages. Run it
// with
//
//	go test -run '^$' -bench Issue10kInvoices -benchmem -benchtime 1x ./domain/invoices/
func BenchmarkIssue10kInvoices(b *testing.B) {
	const n = 10_000
	langs := []pricing.Language{pricing.German, pricing.English, pricing.Dutch}
	invoices := make([]Invoice, len(langs))
	for i, lang := range langs {
		invoices[i] = testInvoice(b, lang)
	}
	var pdfBytes, xmlBytes int64
	for b.Loop() {
		var pdfOut, xmlOut countingWriter
		for i := range n {
			inv := invoices[i%len(invoices)]
			inv.Number = fmt.Sprintf("2026-%06d", i+1)
			if err := WritePDF(&pdfOut, inv); err != nil {
				b.Fatal(err)
			}
			if err := WriteCII(&xmlOut, inv); err != nil {
				b.Fatal(err)
			}
		}
		pdfBytes, xmlBytes = pdfOut.n, xmlOut.n
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/n, "µs/invoice")
	b.ReportMetric(float64(pdfBytes)/n, "pdf-bytes/invoice")
	b.ReportMetric(float64(xmlBytes)/n, "xml-bytes/invoice")
}
