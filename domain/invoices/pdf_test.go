package invoices

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/tenurehq/tenure/domain/pricing"
)

// writePDF renders an invoice to a PDF file of the test.
func writePDF(t *testing.T, inv Invoice) string {
	t.Helper()
	var out bytes.Buffer
	if err := WritePDF(&out, inv); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out.Bytes(), []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", out.Bytes()[:min(20, out.Len())])
	}
	path := filepath.Join(t.TempDir(), "invoice-"+string(inv.Language)+".pdf")
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// pdfText is a PDF's text as poppler's pdftotext reads it, no-break
// spaces as spaces; the test is skipped without poppler-utils.
func pdfText(t *testing.T, path string) string {
	t.Helper()
	tool, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext is not installed (apt-get install poppler-utils): the PDF's text is not checked")
	}
	out, err := exec.Command(tool, "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	return strings.ReplaceAll(string(out), "\u00a0", " ")
}

// What §14 (4) UStG requires is on the page, in each language, with € and
// umlauts as they are written.
func TestThePDFCarriesWhatTheLawRequires(t *testing.T) {
	common := []string{
		// No. 1: both parties' names and addresses.
		"Tenure Finanz GmbH", "Friedrichstraße 123", "10117 Berlin",
		"Müller & Söhne Fahrradwerkstatt GmbH", "Königsallee 9", "Hinterhof, 2. OG", "40212 Düsseldorf",
		// No. 2: the seller's VAT id and tax number; the buyer's VAT id.
		"DE123456789", "37/123/45678", "DE987654321",
		// No. 4: the number.
		"2026-000017",
		// No. 5: the lines' descriptions.
		"E-Bike „Stromer ST3“", "Lastenrad Urban Arrow Family", "Versicherungspaket Diebstahl", "Fachbuch „Fahrradtechnik“",
		// The pre-notification: mandate reference, creditor id, masked IBAN.
		"TNR0190F3A27B1C7DEF8A123456789ABCDE", "DE98ZZZ09999999999", "DE89 **** **** **** **** 00",
		// The seller's legal information.
		"Amtsgericht Charlottenburg HRB 123456 B", "Jana Groß, Jörg Weiß", "ORD-2026-4711",
	}
	for _, tc := range []struct {
		lang pricing.Language
		want []string
	}{
		{pricing.German, []string{
			"Rechnung 2026-000017", "Rechnungsdatum", "25.11.2026", "Leistungszeitraum: 01.12.2026 – 31.12.2026",
			"Leistungszeitraum: 15.12.2026 – 14.01.2027", "01.12.2026 – 14.01.2027",
			"1 Monat", "2 Monate", "1 Stück", "159,66 €", "190,00 €", "30,34 €", "19 %", "7 %",
			"USt. 19 % auf 253,63 €", "48,20 €", "USt. 7 % auf 32,71 €", "2,29 €", "Summe netto", "286,34 €", "Gesamtbetrag", "336,83 €",
			"USt-IdNr. DE123456789", "Steuernummer 37/123/45678", "Ihre USt-IdNr.",
			"SEPA-Lastschrift", "Den Zahlbetrag von 336,83 € ziehen wir am 01.12.2026 per SEPA-Lastschrift von Ihrem Konto DE89 **** **** **** **** 00 ein.",
			"Mandatsreferenz:", "Gläubiger-Identifikationsnummer:", "Seite 1 von 1",
		}},
		{pricing.English, []string{
			"Invoice 2026-000017", "Invoice date", "25 November 2026", "Service period: 1 December 2026 – 31 December 2026",
			"1 month", "2 months", "1 piece", "€159.66", "€190.00", "19%", "7%", "VAT 19% on €253.63", "€48.20", "Total net", "€336.83",
			"VAT ID DE123456789", "Tax number 37/123/45678",
			"We will collect the amount due of €336.83 by SEPA direct debit from your account DE89 **** **** **** **** 00 on 1 December 2026.",
			"Mandate reference:", "Creditor identifier:", "Page 1 of 1",
		}},
		{pricing.Dutch, []string{
			"Factuur 2026-000017", "Factuurdatum", "25-11-2026", "Prestatieperiode: 01-12-2026 – 31-12-2026",
			"1 maand", "2 maanden", "1 stuk", "€ 159,66", "€ 190,00", "Btw 19% over € 253,63", "€ 48,20", "Totaal incl. btw", "€ 336,83",
			"Btw-id DE123456789", "Belastingnummer 37/123/45678",
			"Het te betalen bedrag van € 336,83 wordt op 01-12-2026 via SEPA-incasso afgeschreven van uw rekening DE89 **** **** **** **** 00.",
			"Machtigingskenmerk:", "Incassant-ID:", "Pagina 1 van 1",
		}},
	} {
		text := pdfText(t, writePDF(t, testInvoice(t, tc.lang)))
		flat := strings.Join(strings.Fields(text), " ")
		for _, want := range append(common, tc.want...) {
			if !strings.Contains(flat, want) {
				t.Errorf("%s: the PDF does not say %q", tc.lang, want)
			}
		}
		if strings.Contains(flat, "370400440532013000") || strings.Contains(flat, "0532 0130") {
			t.Errorf("%s: the PDF shows the unmasked IBAN", tc.lang)
		}
		if strings.Contains(text, "\ufffd") || strings.Contains(text, "Ã") {
			t.Errorf("%s: the PDF has broken characters:\n%s", tc.lang, text)
		}
	}
}

// A long invoice breaks its table across pages, heads each page and
// numbers them.
func TestALongInvoiceSpansPages(t *testing.T) {
	inv := testInvoice(t, pricing.German)
	base := inv.Lines[0]
	inv.Lines = nil
	for i := range 30 {
		l := base
		l.Description = fmt.Sprintf("Miete Dezember 2026: Vertrag C-%d, eine Beschreibung, die über mehrere Zeilen umbricht", 2000+i)
		inv.Lines = append(inv.Lines, l)
	}
	exempt := base
	exempt.Description = "Sachverständigengutachten"
	exempt.Price = pricing.FromNet("EUR", 5000, 0)
	inv.Lines = append(inv.Lines, exempt)
	inv.ExemptionReason = "Steuerfrei nach § 4 Nr. 8 UStG"

	text := pdfText(t, writePDF(t, inv))
	pages := strings.Split(text, "\f")
	if len(pages) < 3 {
		t.Fatalf("%d pages for 31 lines", len(pages))
	}
	for n, page := range pages[:len(pages)-1] { // the text ends with a form feed
		if !strings.Contains(page, fmt.Sprintf("Seite %d von %d", n+1, len(pages)-1)) {
			t.Errorf("page %d is not numbered of %d", n+1, len(pages)-1)
		}
		if !strings.Contains(page, "USt-IdNr. DE123456789") || !strings.Contains(page, "HRB 123456 B") {
			t.Errorf("page %d has no footer", n+1)
		}
		if n > 0 && !strings.Contains(page, "Rechnung 2026-000017 · 25.11.2026") {
			t.Errorf("page %d is not headed by the invoice", n+1)
		}
	}
	flat := strings.Join(strings.Fields(text), " ")
	for i := range 30 {
		if !strings.Contains(flat, fmt.Sprintf("Vertrag C-%d,", 2000+i)) {
			t.Errorf("line %d is missing", i+1)
		}
	}
	for _, want := range []string{"USt. 0 % auf 50,00 €", "Steuerbefreiung: Steuerfrei nach § 4 Nr. 8 UStG", "Gesamtbetrag 5.750,00 €"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the PDF does not say %q", want)
		}
	}
}

// The column titles fit their columns in two lines in every language.
func TestColumnTitlesFit(t *testing.T) {
	p := fpdf.New("P", "mm", "A4", "")
	p.AddPage()
	p.SetFont("Helvetica", "B", 7.5)
	for lang, l := range allLabels {
		titles := [8]string{l.position, l.description, l.quantity, l.unitPrice, l.net, l.rate, l.tax, l.gross}
		for i, title := range titles {
			if lines := p.SplitLines([]byte(cp1252()(title)), columns[i]); len(lines) > 2 {
				t.Errorf("%s: %q takes %d lines in %.0f mm", lang, title, len(lines), columns[i])
			}
		}
	}
}

// Looking at the invoice: with RENDER_INVOICE=dir the test renders each
// language's PDF to PNG with pdftoppm (-r 80) into dir, to look at.
func TestRenderInvoicesToLookAt(t *testing.T) {
	dir := os.Getenv("RENDER_INVOICE")
	if dir == "" {
		t.Skip("set RENDER_INVOICE to a directory to render the invoices to PNG")
	}
	tool, err := exec.LookPath("pdftoppm")
	if err != nil {
		t.Skip("pdftoppm is not installed (apt-get install poppler-utils)")
	}
	for _, lang := range []pricing.Language{pricing.German, pricing.English, pricing.Dutch} {
		path := writePDF(t, testInvoice(t, lang))
		prefix := filepath.Join(dir, "invoice-"+string(lang))
		if out, err := exec.Command(tool, "-png", "-r", "80", path, prefix).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm: %v\n%s", err, out)
		}
	}
}

func TestWritePDFRefusesAnInvalidInvoice(t *testing.T) {
	inv := testInvoice(t, pricing.German)
	inv.Buyer.Name = ""
	var out bytes.Buffer
	if err := WritePDF(&out, inv); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "buyer.name: the name is missing") || out.Len() != 0 {
		t.Errorf("%v, %d bytes", err, out.Len())
	}
}
