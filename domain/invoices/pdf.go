package invoices

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/go-pdf/fpdf"

	"github.com/tenurehq/tenure/foundation/civil"
)

// The page: A4 in millimetres, 20 mm margins, the footer's 30 mm kept
// free.
const (
	pageWidth    = 210.0
	pageHeight   = 297.0
	margin       = 20.0
	contentWidth = pageWidth - 2*margin
	footerHeight = 30.0
	lineHeight   = 4.4
)

// columns are the line table's columns: their widths add up to the
// content's width.
var columns = [8]float64{9, 59, 20, 20, 18, 14, 14, 16}

// cp1252 translates UTF-8 into the code page of the PDF core fonts
// (Helvetica), which has €, umlauts, ß and the accents of Western
// European languages. The translator is built once and only read after.
var cp1252 = sync.OnceValue(func() func(string) string {
	return fpdf.New("P", "mm", "A4", "").UnicodeTranslatorFromDescriptor("cp1252")
})

// WritePDF writes the invoice as a PDF in the customer's language, with
// everything §14 (4) UStG requires: both parties' names and addresses,
// the seller's VAT id and tax number, the buyer's VAT id when it has one,
// the issue date and number, each line with its quantity, description,
// service period, unit price, net, tax rate, tax and gross, the totals per
// rate, and the note that the amount is collected by SEPA direct debit
// with the date, the masked account, the mandate reference and the
// creditor identifier (the pre-notification). It refuses an invoice
// Validate finds problems in.
//
// The PDF uses the core font Helvetica in code page 1252, so it embeds no
// font and a page costs little; characters outside cp1252 print as '.'.
func WritePDF(w io.Writer, inv Invoice) error {
	if err := errorOf(inv.Validate()); err != nil {
		return err
	}
	doc := newDocument(inv)
	doc.header()
	doc.lines()
	doc.totals()
	doc.paymentNote()
	return doc.pdf.Output(w)
}

// document is an invoice being laid out.
type document struct {
	pdf    *fpdf.Fpdf
	tr     func(string) string
	inv    Invoice
	t      Totals
	labels labels
	style  style
}

// newDocument starts the PDF: its metadata, margins and footer.
func newDocument(inv Invoice) *document {
	d := &document{
		pdf: fpdf.New("P", "mm", "A4", ""), tr: cp1252(), inv: inv, t: inv.Totals(),
		labels: allLabels[inv.Language], style: styles[inv.Language],
	}
	p := d.pdf
	issued := inv.IssueDate.Midnight(time.UTC)
	p.SetCreationDate(issued)
	p.SetModificationDate(issued)
	p.SetTitle(d.labels.invoice+" "+inv.Number, true)
	p.SetAuthor(inv.Seller.Name, true)
	p.SetCreator("Tenure", true)
	p.SetLang(string(inv.Language))
	p.SetMargins(margin, 15, margin)
	p.SetAutoPageBreak(false, footerHeight)
	p.AliasNbPages("{nb}")
	p.SetFooterFunc(d.footer)
	// Uncompressed: a page of text is a few kilobytes either way, and
	// fpdf's deflate writer per stream cost more than half of an
	// invoice's rendering (see docs/performance.md, Invoices).
	p.SetCompression(false)
	p.AddPage()
	return d
}

// font sets the font: style "" or "B", size in points.
func (d *document) font(style string, size float64) { d.pdf.SetFont("Helvetica", style, size) }

// text writes a cell of text at the current position.
func (d *document) text(w, h float64, s, align string) {
	d.pdf.CellFormat(w, h, d.tr(s), "", 0, align, false, 0, "")
}

// textLine writes a cell and moves to the next line at x.
func (d *document) textLine(x, w, h float64, s, align string) {
	d.pdf.SetX(x)
	d.pdf.CellFormat(w, h, d.tr(s), "", 1, align, false, 0, "")
}

// addressLines are a party's address as printed: street lines, then
// postal code and city, then the country when it is not the seller's.
func (d *document) addressLines(p Party) []string {
	a := p.Address
	lines := []string{a.Street}
	if a.Street2 != "" {
		lines = append(lines, a.Street2)
	}
	lines = append(lines, a.PostalCode+" "+a.City)
	if a.Country != d.inv.Seller.Address.Country {
		lines = append(lines, a.Country)
	}
	return lines
}

// date writes a date in the invoice's language.
func (d *document) date(day civil.Date) string { return d.style.date(day) }

// period writes a service period: "01.12.2026 – 31.12.2026".
func (d *document) period(p civil.Period) string { return d.date(p.From) + " – " + d.date(p.To) }

// header writes the seller, the sender line, the buyer's address, the
// invoice's facts and its title.
func (d *document) header() {
	p, inv, l := d.pdf, d.inv, d.labels
	seller := inv.Seller

	p.SetY(15)
	d.font("B", 11)
	d.textLine(115, 75, 5.5, seller.Name, "R")
	d.font("", 8.5)
	for _, line := range append(d.addressLines(seller), seller.Contact.Phone, seller.Contact.Email) {
		if line != "" {
			d.textLine(115, 75, 4, line, "R")
		}
	}

	p.SetY(47)
	d.font("", 7)
	p.SetTextColor(90, 90, 90)
	sender := append([]string{seller.Name}, seller.Address.Street, seller.Address.PostalCode+" "+seller.Address.City)
	d.textLine(margin, 85, 3.5, strings.Join(sender, " · "), "L")
	p.SetTextColor(0, 0, 0)

	p.SetY(53)
	d.font("", 10)
	for _, line := range append([]string{inv.Buyer.Name}, d.addressLines(inv.Buyer)...) {
		d.textLine(margin, 85, 5, line, "L")
	}

	facts := [][2]string{
		{l.number, inv.Number},
		{l.date, d.date(inv.IssueDate)},
		{l.buyerReference, inv.BuyerReference},
		{l.servicePeriod, d.period(inv.ServicePeriod())},
	}
	if inv.Buyer.VATID != "" {
		facts = append(facts, [2]string{l.buyerVATID, inv.Buyer.VATID})
	}
	p.SetY(53)
	for _, f := range facts {
		p.SetX(115)
		d.font("", 8.5)
		d.text(35, 5, f[0], "L")
		d.font("B", 8.5)
		d.textLine(150, 40, 5, f[1], "R")
	}

	p.SetY(92)
	d.font("B", 15)
	d.textLine(margin, contentWidth, 8, l.invoice+" "+inv.Number, "L")
	p.Ln(3)
}

// nextPage starts a following page, headed by the invoice's number and
// date.
func (d *document) nextPage() {
	p := d.pdf
	p.AddPage()
	p.SetY(15)
	d.font("", 8)
	p.SetTextColor(90, 90, 90)
	d.textLine(margin, contentWidth, 4, d.labels.invoice+" "+d.inv.Number+" · "+d.date(d.inv.IssueDate), "L")
	p.SetTextColor(0, 0, 0)
	p.SetY(24)
}

// tableHeader writes the line table's column titles.
func (d *document) tableHeader() {
	p, l := d.pdf, d.labels
	titles := [8]string{l.position, l.description, l.quantity, l.unitPrice, l.net, l.rate, l.tax, l.gross}
	d.font("B", 7.5)
	p.SetFillColor(235, 238, 242)
	y := p.GetY()
	p.Rect(margin, y, contentWidth, 9, "F")
	x := margin
	for i, title := range titles {
		align := "R"
		if i == 1 {
			align = "L"
		}
		p.SetXY(x, y+0.8)
		p.MultiCell(columns[i], 3.6, d.tr(title), "", align, false)
		x += columns[i]
	}
	p.SetY(y + 10)
}

// lines writes the line table, breaking pages between rows.
func (d *document) lines() {
	p, l, s := d.pdf, d.labels, d.style
	d.tableHeader()
	for i, line := range d.inv.Lines {
		d.font("", 8.5)
		// SplitLines measures the cp1252 bytes the core font prints
		// (SplitText would read them as UTF-8).
		description := p.SplitLines([]byte(d.tr(line.Description)), columns[1]-1)
		rowHeight := float64(len(description)+1)*lineHeight + 1.5
		if p.GetY()+rowHeight > pageHeight-footerHeight {
			d.nextPage()
			d.tableHeader()
			d.font("", 8.5)
		}
		a := line.Amount()
		cells := [8]string{
			fmt.Sprint(i + 1), "",
			fmt.Sprintf("%d %s", line.Quantity, l.unit(line.Unit, line.Quantity)),
			s.money(line.Price.Net), s.money(a.Net), s.percent(line.Price.TaxRate), s.money(a.Gross - a.Net), s.money(a.Gross),
		}
		y := p.GetY()
		x := margin
		for c, text := range cells {
			p.SetXY(x, y)
			if c == 1 {
				for _, part := range description {
					p.SetX(x)
					p.CellFormat(columns[1], lineHeight, string(part), "", 2, "L", false, 0, "")
				}
				p.SetX(x)
				d.font("", 7.5)
				p.SetTextColor(90, 90, 90)
				p.CellFormat(columns[1], lineHeight, d.tr(l.servicePeriod+": "+d.period(line.Period)), "", 2, "L", false, 0, "")
				p.SetTextColor(0, 0, 0)
				d.font("", 8.5)
			} else {
				d.text(columns[c], lineHeight, text, "R")
			}
			x += columns[c]
		}
		p.SetDrawColor(210, 214, 220)
		p.Line(margin, y+rowHeight-0.5, margin+contentWidth, y+rowHeight-0.5)
		p.SetY(y + rowHeight)
	}
}

// totals writes the net total, the tax of each rate and the total.
func (d *document) totals() {
	p, l, s, t := d.pdf, d.labels, d.style, d.t
	rows := [][2]string{{l.totalNet, s.money(t.Net)}}
	for _, r := range t.Rates {
		rows = append(rows, [2]string{fmt.Sprintf(l.taxOn, s.percent(r.Rate), s.money(r.Net)), s.money(r.Tax)})
	}
	needed := float64(len(rows)+2)*5.5 + 6
	if d.inv.ExemptionReason != "" {
		needed += 10
	}
	if p.GetY()+needed > pageHeight-footerHeight {
		d.nextPage()
	}
	p.Ln(2)
	d.font("", 9)
	for _, r := range rows {
		p.SetX(95)
		d.text(65, 5.5, r[0], "R")
		d.textLine(160, 30, 5.5, r[1], "R")
	}
	p.SetDrawColor(0, 0, 0)
	p.Line(120, p.GetY()+0.5, margin+contentWidth, p.GetY()+0.5)
	p.Ln(1.5)
	d.font("B", 10.5)
	p.SetX(95)
	d.text(65, 6.5, l.totalGross, "R")
	d.textLine(160, 30, 6.5, s.money(t.Gross), "R")
	if d.inv.ExemptionReason != "" {
		p.Ln(2)
		d.font("", 8.5)
		p.SetX(margin)
		p.MultiCell(contentWidth, 4.2, d.tr(l.exemption+": "+d.inv.ExemptionReason), "", "L", false)
	}
}

// paymentNote writes the pre-notification of the direct debit. The masked
// IBAN's groups are joined by no-break spaces, so it is not split across
// lines.
func (d *document) paymentNote() {
	p := d.pdf
	iban := d.inv.Payment.DebtorIBAN.Masked()
	text := d.tr(strings.Replace(preNotification(d.inv, d.t), iban, strings.ReplaceAll(iban, " ", "\u00a0"), 1))
	d.font("", 9)
	lines := p.SplitLines([]byte(text), contentWidth)
	if p.GetY()+float64(len(lines))*4.6+14 > pageHeight-footerHeight {
		d.nextPage()
	}
	p.Ln(8)
	d.font("B", 9.5)
	d.textLine(margin, contentWidth, 5.5, d.labels.payment, "L")
	d.font("", 9)
	p.SetX(margin)
	p.MultiCell(contentWidth, 4.6, text, "", "L", false)
}

// footer writes, on every page, the seller's address, tax numbers, legal
// information and the page number.
func (d *document) footer() {
	p, l, seller := d.pdf, d.labels, d.inv.Seller
	top := pageHeight - footerHeight + 6
	p.SetDrawColor(180, 180, 180)
	p.Line(margin, top-2, margin+contentWidth, top-2)
	p.SetTextColor(90, 90, 90)
	d.font("", 7)
	column := func(x, w float64, lines []string) {
		p.SetY(top)
		for _, line := range lines {
			if line != "" {
				d.textLine(x, w, 3.3, line, "L")
			}
		}
	}
	column(margin, 55, append([]string{seller.Name}, d.addressLines(seller)...))
	var tax []string
	if seller.VATID != "" {
		tax = append(tax, l.vatID+" "+seller.VATID)
	}
	if seller.TaxNumber != "" {
		tax = append(tax, l.taxNumber+" "+seller.TaxNumber)
	}
	column(margin+57, 55, append(tax, l.contact+": "+seller.Contact.Name, seller.Contact.Email))
	column(margin+114, 56, seller.LegalInfo)
	p.SetY(pageHeight - 10)
	d.textLine(margin, contentWidth, 3.3, fmt.Sprintf("%s %d %s {nb}", l.page, p.PageNo(), l.of), "R")
	p.SetTextColor(0, 0, 0)
}
