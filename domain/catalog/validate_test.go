package catalog

import (
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func validInput() ProductInput {
	return ProductInput{
		Title:        "Dell UltraSharp U2724D",
		Manufacturer: "Dell",
		Type:         "hardware",
		IsActive:     true,
		Price:        Money{Currency: "EUR", Net: 54538, Gross: 64900, TaxRate: ptr(int64(1900))},
		References:   []Reference{{"sku", "U2724D"}, {"ean", "5397184801234"}},
		Identifiers:  []Identifier{{Type: "ean", ID: "5397184801234"}, {Type: "MPN", ID: "DELL-U2724D"}},
	}
}

func TestValidateAcceptsAndNormalises(t *testing.T) {
	in := validInput()
	in.References = append(in.References, Reference{"sku", "U2724D"})
	in.Price.TaxRate = nil
	p, rej := Validate(in, "EUR")
	if rej != nil {
		t.Fatalf("rejected: %+v", rej)
	}
	if len(p.References) != 2 {
		t.Errorf("a repeated pair is kept once: %+v", p.References)
	}
	if p.ListPrice.TaxRate != 1900 {
		t.Errorf("the tax rate is derived from net and gross: %+v", p.ListPrice)
	}
	if p.EAN != "5397184801234" || p.MPN != "DELL-U2724D" || p.PrettyID() != "U2724D" {
		t.Errorf("EAN %q, MPN %q, pretty id %q", p.EAN, p.MPN, p.PrettyID())
	}
	if got := SearchText(p); got != "dell ultrasharp u2724d\n\ndell\nu2724d\n5397184801234\n5397184801234\ndell-u2724d" {
		t.Errorf("search text %q", got)
	}
}

func TestValidateRejections(t *testing.T) {
	cases := []struct {
		name string
		tune func(*ProductInput)
		code string
		want string
	}{
		{"empty source", func(p *ProductInput) { p.References[1].Source = "" }, CodeInvalidReference, "seller_product_references[1].source must not be empty"},
		{"empty reference", func(p *ProductInput) { p.References[0].Reference = "" }, CodeInvalidReference, "seller_product_references[0].reference must not be empty"},
		{"no references", func(p *ProductInput) { p.References = nil }, CodeInvalidReference, "at least one"},
		{"reference without allowed characters", func(p *ProductInput) { p.References[0].Reference = "äöü" }, CodeInvalidReference, "must contain a letter"},
		{"long reference", func(p *ProductInput) { p.References[0].Reference = strings.Repeat("r", 256) }, CodeInvalidReference, "at most 255"},
		{"too many references", func(p *ProductInput) {
			p.References = nil
			for i := range 101 {
				p.References = append(p.References, Reference{"sku", strings.Repeat("x", i+1)})
			}
		}, CodeTooManyItems, "101 pairs"},
		{"zero net", func(p *ProductInput) { p.Price.Net = 0 }, CodeInvalidPrice, "price.net must be positive"},
		{"negative gross", func(p *ProductInput) { p.Price.Gross = -1 }, CodeInvalidPrice, "price.gross must be positive"},
		{"gross below net", func(p *ProductInput) { p.Price.Gross = p.Price.Net - 1 }, CodeInvalidPrice, "price.gross (54537) must not be below price.net (54538)"},
		{"huge price", func(p *ProductInput) { p.Price.Gross = MaxAmount + 1 }, CodeInvalidPrice, "at most"},
		{"negative tax rate", func(p *ProductInput) { p.Price.TaxRate = ptr(int64(-1)) }, CodeInvalidPrice, "tax_rate"},
		{"other currency", func(p *ProductInput) { p.Price.Currency = "USD" }, CodeCurrencyMismatch, "price.currency must be the seller's currency EUR"},
		{"base rental in other currency", func(p *ProductInput) {
			p.BaseRentalPrice = &Money{Currency: "GBP", Net: 100, Gross: 120}
		}, CodeCurrencyMismatch, "base_rental_price.currency"},
		{"base rental gross below net", func(p *ProductInput) {
			p.BaseRentalPrice = &Money{Currency: "EUR", Net: 100, Gross: 99}
		}, CodeInvalidPrice, "base_rental_price.gross"},
		{"blank title", func(p *ProductInput) { p.Title = "  " }, CodeInvalidText, "title must not be empty"},
		{"long title", func(p *ProductInput) { p.Title = strings.Repeat("t", 256) }, CodeInvalidText, "title must be at most 255"},
		{"long description", func(p *ProductInput) { p.Description = strings.Repeat("d", 2001) }, CodeInvalidText, "description must be at most 2000"},
		{"long detail", func(p *ProductInput) { p.Details = []Detail{{"memory", strings.Repeat("v", 256)}} }, CodeInvalidText, "extra_details[0].value"},
		{"long category name", func(p *ProductInput) { p.Categories = []Category{{ID: "c", Name: strings.Repeat("n", 256)}} }, CodeInvalidText, "seller_categories[0].name"},
		{"too many details", func(p *ProductInput) { p.Details = make([]Detail, 101) }, CodeTooManyItems, "extra_details has 101"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := validInput()
			tc.tune(&in)
			_, rej := Validate(in, "EUR")
			if rej == nil {
				t.Fatal("accepted")
			}
			if rej.Code != tc.code || !strings.Contains(rej.Description, tc.want) {
				t.Errorf("got %s %q, want %s ~ %q", rej.Code, rej.Description, tc.code, tc.want)
			}
		})
	}
}

func TestRejectionIsReportedUnderAWellFormedPair(t *testing.T) {
	in := validInput()
	in.References = []Reference{{"", "x"}, {"sku", "good"}}
	_, rej := Validate(in, "EUR")
	if rej == nil || rej.Reference != (Reference{"sku", "good"}) {
		t.Errorf("got %+v", rej)
	}
	in.References = []Reference{{"", "x"}}
	if _, rej = Validate(in, "EUR"); rej == nil || rej.Reference != (Reference{"", "x"}) {
		t.Errorf("without a good pair, the first one as sent: %+v", rej)
	}
}

func TestValidateBatchRejectsPairsOfEarlierProducts(t *testing.T) {
	a, b, c := validInput(), validInput(), validInput()
	b.References = []Reference{{"other", "1"}, {"ean", "5397184801234"}}
	c.References = []Reference{{"sku", "C"}}
	bad := validInput()
	bad.References = []Reference{{"sku", "D"}}
	bad.Price.Net = 0
	d := validInput()
	d.References = []Reference{{"sku", "D"}}
	valid, rejections := ValidateBatch([]ProductInput{a, b, c, bad, d}, "EUR")
	if len(valid) != 3 || valid[0].Index != 0 || valid[1].Index != 2 || valid[2].Index != 4 {
		t.Errorf("valid: %+v", valid)
	}
	if len(rejections) != 2 || rejections[0].Index != 1 || rejections[0].Code != CodeDuplicateReference ||
		!strings.Contains(rejections[0].Description, "product 0") || rejections[1].Index != 3 {
		t.Errorf("rejections: %+v", rejections)
	}
}

func TestSummaryKeepsTheFirstRejections(t *testing.T) {
	var s Summary
	for i := 40; i > 0; i -= 2 {
		s.reject(Rejection{Index: i})
	}
	s.reject(Rejection{Index: 1}, Rejection{Index: 41})
	if s.Rejected != 22 || len(s.Sample) != SampleSize || s.Sample[0].Index != 1 || s.Sample[1].Index != 2 || s.Sample[SampleSize-1].Index != 38 {
		t.Errorf("got %d rejected, sample %+v", s.Rejected, s.Sample)
	}
}
