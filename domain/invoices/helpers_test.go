package invoices

import (
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
)

// day is a date of the tests.
func day(t testing.TB, s string) civil.Date {
	t.Helper()
	d, err := civil.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// month is the period of a calendar month of the tests, e.g. "2026-12".
func month(t testing.TB, ym string) civil.Period {
	from := day(t, ym+"-01")
	return civil.Period{From: from, To: from.AddMonths(1).AddDays(-1)}
}

// testInvoice is an order's invoice for December 2026: two contracts'
// installments and a final charge, in a language.
func testInvoice(t testing.TB, lang pricing.Language) Invoice {
	t.Helper()
	iban, err := sepa.ParseIBAN("DE89 3704 0044 0532 0130 00")
	if err != nil {
		t.Fatal(err)
	}
	return Invoice{
		Number:    "2026-000017",
		IssueDate: day(t, "2026-11-25"),
		Language:  lang,
		Currency:  "EUR",
		Seller: Party{
			Name:      "Tenure Finanz GmbH",
			Address:   Address{Street: "Friedrichstraße 123", PostalCode: "10117", City: "Berlin", Country: "DE"},
			VATID:     "DE123456789",
			TaxNumber: "37/123/45678",
			Email:     "rechnung@tenure.example",
			Contact:   Contact{Name: "Forderungsmanagement", Phone: "+49 30 1234567", Email: "finanzen@tenure.example"},
			LegalInfo: []string{"Amtsgericht Charlottenburg HRB 123456 B", "Geschäftsführung: Jana Groß, Jörg Weiß", "Sitz der Gesellschaft: Berlin"},
		},
		Buyer: Party{
			Name:    "Müller & Söhne Fahrradwerkstatt GmbH",
			Address: Address{Street: "Königsallee 9", Street2: "Hinterhof, 2. OG", PostalCode: "40212", City: "Düsseldorf", Country: "DE"},
			VATID:   "DE987654321",
			Email:   "buchhaltung@mueller-soehne.example",
		},
		BuyerReference: "ORD-2026-4711",
		Lines: []Line{
			{Description: "Miete Dezember 2026: 2 × E-Bike „Stromer ST3“ (Vertrag C-1001, Rate 3 von 36)", Quantity: 1, Unit: "MON",
				Price: pricing.FromNet("EUR", 15966, 1900), Period: month(t, "2026-12")},
			{Description: "Miete 15.12.2026–14.01.2027: Lastenrad Urban Arrow Family (Vertrag C-1002, Rate 1 von 24)", Quantity: 1, Unit: "MON",
				Price: pricing.FromNet("EUR", 8399, 1900), Period: civil.Period{From: day(t, "2026-12-15"), To: day(t, "2027-01-14")}},
			{Description: "Versicherungspaket Diebstahl (Vertrag C-1001)", Quantity: 2, Unit: "MON",
				Price: pricing.FromNet("EUR", 499, 1900), Period: month(t, "2026-12")},
			{Description: "Fachbuch „Fahrradtechnik“ (ermäßigter Steuersatz)", Quantity: 1, Unit: "C62",
				Price: pricing.FromNet("EUR", 3271, 700), Period: civil.Period{From: day(t, "2026-12-01"), To: day(t, "2026-12-01")}},
		},
		Payment: DirectDebit{
			Mandate:        "TNR0190F3A27B1C7DEF8A123456789ABCDE",
			CreditorID:     "DE98ZZZ09999999999",
			DebtorIBAN:     iban,
			CollectionDate: day(t, "2026-12-01"),
		},
	}
}
