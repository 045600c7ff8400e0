package invoices

import (
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
)

func TestAValidInvoiceHasNoProblems(t *testing.T) {
	for _, lang := range []pricing.Language{pricing.German, pricing.English, pricing.Dutch} {
		if problems := testInvoice(t, lang).Validate(); len(problems) > 0 {
			t.Errorf("%s: %v", lang, problems)
		}
	}
	// A seller with only a tax number, a buyer without a VAT id or e-mail
	// (a consumer), no legal information: still an invoice.
	inv := testInvoice(t, pricing.German)
	inv.Seller.VATID, inv.Seller.LegalInfo, inv.Seller.Email = "", nil, ""
	inv.Buyer.VATID, inv.Buyer.Email, inv.Buyer.Address.Street2 = "", "", ""
	if problems := inv.Validate(); len(problems) > 0 {
		t.Errorf("a lean invoice: %v", problems)
	}
}

// Each field §14 (4) UStG, XRechnung or the direct debit needs is named
// when it is missing or wrong.
func TestValidateNamesWhatTheInvoiceLacks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Invoice)
		key    string
		says   string
	}{
		{"no number (§14 (4) No. 4)", func(i *Invoice) { i.Number = " " }, "number", "no number"},
		{"no issue date (No. 3)", func(i *Invoice) { i.IssueDate = civil.Date{} }, "issue_date", "no issue date"},
		{"an unknown language", func(i *Invoice) { i.Language = "fr" }, "language", `en, de or nl, got "fr"`},
		{"another currency", func(i *Invoice) { i.Currency = "CHF" }, "currency", `in "CHF"`},
		{"no seller name (No. 1)", func(i *Invoice) { i.Seller.Name = "" }, "seller.name", "the name is missing"},
		{"no seller street", func(i *Invoice) { i.Seller.Address.Street = "" }, "seller.address.street", "the street is missing"},
		{"no seller postal code (BR-DE-4)", func(i *Invoice) { i.Seller.Address.PostalCode = "" }, "seller.address.postal_code", "the postal code is missing"},
		{"no seller city (BR-DE-3)", func(i *Invoice) { i.Seller.Address.City = "" }, "seller.address.city", "the city is missing"},
		{"a country name", func(i *Invoice) { i.Seller.Address.Country = "Deutschland" }, "seller.address.country", "two capital letters"},
		{"no VAT id nor tax number (No. 2)", func(i *Invoice) { i.Seller.VATID, i.Seller.TaxNumber = "", "" }, "seller.vat_id", "§14 (4) No. 2 UStG"},
		{"a malformed VAT id", func(i *Invoice) { i.Seller.VATID = "123456789" }, "seller.vat_id", "is not a VAT identification number"},
		{"no seller contact (BR-DE-5)", func(i *Invoice) { i.Seller.Contact.Name = "" }, "seller.contact.name", "BR-DE-5"},
		{"no seller phone (BR-DE-6)", func(i *Invoice) { i.Seller.Contact.Phone = "+4" }, "seller.contact.phone", "BR-DE-6"},
		{"no seller e-mail (BR-DE-7)", func(i *Invoice) { i.Seller.Contact.Email = "" }, "seller.contact.email", "BR-DE-7"},
		{"a malformed e-mail (BR-DE-28)", func(i *Invoice) { i.Seller.Contact.Email = "finanzen@tenure" }, "seller.contact.email", "is not an e-mail address"},
		{"a malformed party e-mail", func(i *Invoice) { i.Buyer.Email = "buchhaltung" }, "buyer.email", "is not an e-mail address"},
		{"no buyer name (No. 1)", func(i *Invoice) { i.Buyer.Name = "" }, "buyer.name", "the name is missing"},
		{"no buyer city (BR-DE-8)", func(i *Invoice) { i.Buyer.Address.City = "" }, "buyer.address.city", "the city is missing"},
		{"no buyer postal code (BR-DE-9)", func(i *Invoice) { i.Buyer.Address.PostalCode = "" }, "buyer.address.postal_code", "the postal code is missing"},
		{"a malformed buyer VAT id", func(i *Invoice) { i.Buyer.VATID = "de987654321" }, "buyer.vat_id", "is not a VAT identification number"},
		{"no buyer reference (BR-DE-15)", func(i *Invoice) { i.BuyerReference = "" }, "buyer_reference", "BR-DE-15"},
		{"no lines", func(i *Invoice) { i.Lines = nil }, "lines", "no lines"},
		{"a line without description (No. 5)", func(i *Invoice) { i.Lines[1].Description = "" }, "lines[1].description", "§14 (4) No. 5"},
		{"no quantity (No. 5)", func(i *Invoice) { i.Lines[0].Quantity = 0 }, "lines[0].quantity", "at least 1, got 0"},
		{"an unknown unit", func(i *Invoice) { i.Lines[0].Unit = "month" }, "lines[0].unit", `got "month"`},
		{"a price in another currency", func(i *Invoice) { i.Lines[2].Price.Currency = "USD" }, "lines[2].price", `in "USD"`},
		{"a gross not taxed once", func(i *Invoice) { i.Lines[0].Price.Gross++ }, "lines[0].price", "is not the net 15966 taxed once at 19 %"},
		{"a negative net", func(i *Invoice) { i.Lines[0].Price = pricing.FromNet("EUR", -100, 1900) }, "lines[0].price", "at least 0"},
		{"a rate above 100 %", func(i *Invoice) { i.Lines[0].Price = pricing.FromNet("EUR", 100, 10100) }, "lines[0].price", "0 to 100 %"},
		{"no service period (No. 6)", func(i *Invoice) { i.Lines[3].Period = civil.Period{} }, "lines[3].period", "§14 (4) No. 6"},
		{"a period ending before it starts", func(i *Invoice) { i.Lines[3].Period.To = i.Lines[3].Period.From.AddDays(-1) }, "lines[3].period", "ends (2026-11-30) before it starts (2026-12-01)"},
		{"an exempt line without the note (No. 8)", func(i *Invoice) { i.Lines[3].Price = pricing.FromNet("EUR", 3271, 0) }, "exemption_reason", "§14 (4) No. 8"},
		{"no mandate", func(i *Invoice) { i.Payment.Mandate = "" }, "payment.mandate", "mandate reference is empty"},
		{"a mandate outside the SEPA set", func(i *Invoice) { i.Payment.Mandate = "M_1" }, "payment.mandate", "outside the SEPA character set"},
		{"a wrong creditor identifier", func(i *Invoice) { i.Payment.CreditorID = "DE97ZZZ09999999999" }, "payment.creditor_id", "check digits"},
		{"no debtor account (BR-DE-31)", func(i *Invoice) { i.Payment.DebtorIBAN = sepa.IBAN{} }, "payment.debtor_iban", "BR-DE-31"},
		{"no collection date", func(i *Invoice) { i.Payment.CollectionDate = civil.Date{} }, "payment.collection_date", "missing"},
		{"a collection before the invoice", func(i *Invoice) { i.Payment.CollectionDate = i.IssueDate.AddDays(-1) }, "payment.collection_date", "before the issue date"},
	} {
		inv := testInvoice(t, pricing.German)
		tc.change(&inv)
		problems := inv.Validate()
		found := false
		for _, p := range problems {
			found = found || (p.Key == tc.key && strings.Contains(p.Message, tc.says))
		}
		if !found {
			t.Errorf("%s: %v, want %s: …%s…", tc.name, problems, tc.key, tc.says)
		}
	}
}

func TestTotalsAreSumsOfTheLinesNeverReRounded(t *testing.T) {
	inv := testInvoice(t, pricing.German)
	got := inv.Totals()
	want := Totals{
		Rates: []RateTotal{{Rate: 700, Net: 3271, Tax: 229}, {Rate: 1900, Net: 15966 + 8399 + 2*499, Tax: 3034 + 1596 + 2*95}},
		Net:   15966 + 8399 + 998 + 3271, Tax: 229 + 3034 + 1596 + 190, Gross: 33683,
	}
	if got.Net != want.Net || got.Tax != want.Tax || got.Gross != want.Gross || len(got.Rates) != 2 || got.Rates[0] != want.Rates[0] || got.Rates[1] != want.Rates[1] {
		t.Errorf("totals %+v, want %+v", got, want)
	}
	var installments int64
	for _, l := range inv.Lines {
		installments += l.Amount().Gross
	}
	if got.Gross != installments {
		t.Errorf("the invoice's gross %d is not the sum of its lines' gross %d", got.Gross, installments)
	}
	// 19 % of 253.63 is 48.19 as EN 16931 computes it; the lines' taxes,
	// each rounded once, add up to 48.20: within BR-CO-17's tolerance.
	if r := got.Rates[1]; r.TaxOfNet() != 4819 || r.Tax != 4820 {
		t.Errorf("19 %%: tax of the net %d, of the lines %d", r.TaxOfNet(), r.Tax)
	}
	if p := inv.ServicePeriod(); p.From != day(t, "2026-12-01") || p.To != day(t, "2027-01-14") {
		t.Errorf("service period %s – %s", p.From, p.To)
	}
}

// Line-wise rounding drifts from the rate's rounding by up to half a cent
// a line; past one euro (EN 16931's tolerance) the invoice is refused.
func TestManyLinesOfOneRateStayWithinTheRoundingTolerance(t *testing.T) {
	lineOf := func() Line {
		return Line{Description: "Zubehör", Quantity: 1, Unit: "MON", Price: pricing.FromNet("EUR", 50, 700), Period: month(t, "2026-12")}
	}
	for _, tc := range []struct {
		lines     int
		tax, diff int64
		refused   bool
	}{
		{1, 4, 0, false},       // 0.50 at 7 % is 0.035: 0.04
		{12, 48, 6, false},     // 12 × 0.04 against 7 % of 6.00 = 0.42
		{200, 800, 100, false}, // exactly one euro apart: accepted
		{202, 808, 101, true},  // one cent more: split the invoice
	} {
		inv := testInvoice(t, pricing.German)
		inv.Lines = nil
		for range tc.lines {
			inv.Lines = append(inv.Lines, lineOf())
		}
		r := inv.Totals().Rates[0]
		if r.Tax != tc.tax || r.Tax-r.TaxOfNet() != tc.diff {
			t.Errorf("%d lines: tax %d (%d from the rate's), want %d (%d)", tc.lines, r.Tax, r.Tax-r.TaxOfNet(), tc.tax, tc.diff)
		}
		refused := false
		for _, p := range inv.Validate() {
			refused = refused || (p.Key == "lines" && strings.Contains(p.Message, "split the invoice"))
		}
		if refused != tc.refused {
			t.Errorf("%d lines: refused %v, want %v", tc.lines, refused, tc.refused)
		}
	}
}

func TestNumbersDatesAndAmountsInEachLanguage(t *testing.T) {
	d := day(t, "2026-03-05")
	for _, tc := range []struct {
		lang                            pricing.Language
		money, small, negative, percent string
		reduced, date                   string
	}{
		{pricing.German, "1.234.567,89 €", "0,05 €", "-12,30 €", "19 %", "7,5 %", "05.03.2026"},
		{pricing.English, "€1,234,567.89", "€0.05", "€-12.30", "19%", "7.5%", "5 March 2026"},
		{pricing.Dutch, "€ 1.234.567,89", "€ 0,05", "€ -12,30", "19%", "7,5%", "05-03-2026"},
	} {
		s := styles[tc.lang]
		got := []string{s.money(123456789), s.money(5), s.money(-1230), s.percent(1900), s.percent(750), s.date(d)}
		want := []string{tc.money, tc.small, tc.negative, tc.percent, tc.reduced, tc.date}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %q, want %q", tc.lang, got[i], want[i])
			}
		}
	}
	for v, want := range map[int64]string{0: "0.00", 5: "0.05", 1900: "19.00", 750: "7.50", -1230: "-12.30", 99999999999: "999999999.99"} {
		if got := twoDecimals(v); got != want {
			t.Errorf("twoDecimals(%d) = %q, want %q", v, got, want)
		}
	}
}
