package catalog

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tenurehq/tenure/domain/pricing"
)

// Rejection codes: why a product of a batch was not imported.
const (
	// CodeInvalidReference: a source or reference is empty, too long, or
	// has none of the characters the contract requires.
	CodeInvalidReference = "invalid_reference"
	// CodeDuplicateReference: a pair appears in an earlier product of the
	// same batch.
	CodeDuplicateReference = "duplicate_reference"
	// CodeReferenceConflict: the pairs name two different catalog products,
	// or the catalog product an earlier product of the batch names.
	CodeReferenceConflict = "reference_conflict"
	// CodeInvalidPrice: an amount or tax rate is out of range, or gross is
	// below net.
	CodeInvalidPrice = "invalid_price"
	// CodeCurrencyMismatch: a price is not in the seller's currency.
	CodeCurrencyMismatch = "currency_mismatch"
	// CodeInvalidText: a required text is empty or a text is too long.
	CodeInvalidText = "invalid_text"
	// CodeTooManyItems: too many references, identifiers, categories or
	// details.
	CodeTooManyItems = "too_many_items"
)

// Limits of a product, beyond the published contract's.
const (
	// MaxTextLength bounds titles, names, references and identifiers.
	MaxTextLength = 255
	// MaxDescriptionLength bounds descriptions (the contract's limit).
	MaxDescriptionLength = 2000
	// MaxURLLength bounds image and shop links.
	MaxURLLength = 2000
	// MaxListLength bounds references, identifiers, categories and details.
	MaxListLength = 100
	// MaxAmount bounds amounts (one billion units), far from overflow in
	// any total.
	MaxAmount = 100_000_000_000
	// MaxTaxRate is 100 %.
	MaxTaxRate = 10000
)

// Rejection is a product of a batch that was not imported, and why.
type Rejection struct {
	// Index is the product's position in the batch.
	Index       int       `json:"index"`
	Reference   Reference `json:"reference"`
	Code        string    `json:"code"`
	Description string    `json:"description"`
}

// referenceChars is the contract's pattern for a reference: at least one
// of these characters somewhere.
var referenceChars = regexp.MustCompile(`[a-zA-Z0-9._-]`)

// problem is a rejection before its batch position is known.
type problem struct{ code, description string }

func reject(code, format string, args ...any) *problem {
	return &problem{code: code, description: fmt.Sprintf(format, args...)}
}

// Validate checks one product against the seller's currency and returns it
// ready to store, or the reason it is rejected.
func Validate(in ProductInput, currency string) (Product, *Rejection) {
	p, prob := validate(in, currency)
	if prob != nil {
		return Product{}, &Rejection{Reference: rejectionReference(in.References), Code: prob.code, Description: prob.description}
	}
	return p, nil
}

func validate(in ProductInput, currency string) (Product, *problem) {
	refs, prob := validReferences(in.References)
	if prob != nil {
		return Product{}, prob
	}
	if prob := validTexts(in); prob != nil {
		return Product{}, prob
	}
	list, prob := validMoney("price", in.Price, currency)
	if prob != nil {
		return Product{}, prob
	}
	p := Product{ProductInput: in, ListPrice: list}
	p.References = refs
	if in.BaseRentalPrice != nil {
		base, prob := validMoney("base_rental_price", *in.BaseRentalPrice, currency)
		if prob != nil {
			return Product{}, prob
		}
		p.BaseRental = &base
	}
	p.EAN, p.MPN = identifier(in.Identifiers, eanTypes), identifier(in.Identifiers, mpnTypes)
	return p, nil
}

// validReferences checks the pairs and drops repeated ones, keeping the
// seller's order.
func validReferences(refs []Reference) ([]Reference, *problem) {
	if len(refs) == 0 {
		return nil, reject(CodeInvalidReference, "seller_product_references must list at least one (source, reference) pair")
	}
	if len(refs) > MaxListLength {
		return nil, reject(CodeTooManyItems, "seller_product_references has %d pairs, at most %d are allowed", len(refs), MaxListLength)
	}
	out := make([]Reference, 0, len(refs))
	for i, r := range refs {
		if fault := r.fault(); fault != "" {
			return nil, reject(CodeInvalidReference, "seller_product_references[%d].%s", i, fault)
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out, nil
}

// fault says what makes a pair unusable, "" when nothing does.
func (r Reference) fault() string {
	switch {
	case r.Source == "":
		return "source must not be empty"
	case r.Reference == "":
		return "reference must not be empty"
	case utf8.RuneCountInString(r.Source) > MaxTextLength:
		return fmt.Sprintf("source must be at most %d characters", MaxTextLength)
	case utf8.RuneCountInString(r.Reference) > MaxTextLength:
		return fmt.Sprintf("reference must be at most %d characters", MaxTextLength)
	case !referenceChars.MatchString(r.Reference):
		return "reference must contain a letter, a digit, '.', '_' or '-'"
	}
	return ""
}

// Valid reports whether a pair is one the contract allows: both parts
// non-empty and within limits, the reference with a character it requires.
func (r Reference) Valid() bool { return r.fault() == "" }

// textField is a text of a product and its length limit.
type textField struct {
	field, value string
	max          int
}

// validTexts checks the free texts and lists of a product.
func validTexts(in ProductInput) *problem {
	if strings.TrimSpace(in.Title) == "" {
		return reject(CodeInvalidText, "title must not be empty")
	}
	lists := []struct {
		field string
		n     int
	}{{"product_standard_identifiers", len(in.Identifiers)}, {"seller_categories", len(in.Categories)}, {"extra_details", len(in.Details)}}
	for _, l := range lists {
		if l.n > MaxListLength {
			return reject(CodeTooManyItems, "%s has %d entries, at most %d are allowed", l.field, l.n, MaxListLength)
		}
	}
	texts := []textField{
		{"title", in.Title, MaxTextLength},
		{"subtitle", in.Subtitle, MaxTextLength},
		{"manufacturer", in.Manufacturer, MaxTextLength},
		{"description", in.Description, MaxDescriptionLength},
		{"image.url", in.ImageURL, MaxURLLength},
		{"shop_product_description_url", in.ShopURL, MaxURLLength},
	}
	for _, t := range texts {
		if n := utf8.RuneCountInString(t.value); n > t.max {
			return reject(CodeInvalidText, "%s must be at most %d characters, got %d", t.field, t.max, n)
		}
	}
	// A list entry's field name is formatted only to name a failure: an
	// import checks millions of them.
	entry := func(format string, i int, value string) *problem {
		if n := utf8.RuneCountInString(value); n > MaxTextLength {
			return reject(CodeInvalidText, "%s must be at most %d characters, got %d", fmt.Sprintf(format, i), MaxTextLength, n)
		}
		return nil
	}
	for i, id := range in.Identifiers {
		if p := cmp.Or(entry("product_standard_identifiers[%d].id", i, id.ID),
			entry("product_standard_identifiers[%d].identifier_type", i, id.Type)); p != nil {
			return p
		}
	}
	for i, c := range in.Categories {
		if p := cmp.Or(entry("seller_categories[%d].id", i, c.ID),
			entry("seller_categories[%d].name", i, c.Name),
			entry("seller_categories[%d].parent_category_id", i, c.ParentID)); p != nil {
			return p
		}
	}
	for i, d := range in.Details {
		if p := cmp.Or(entry("extra_details[%d].property", i, d.Property),
			entry("extra_details[%d].value", i, d.Value)); p != nil {
			return p
		}
	}
	return nil
}

// ValidateMoney checks an amount a seller sends, as imports do: positive,
// gross not below net, in the seller's currency, a tax rate between 0 and
// 100 %. It resolves the tax rate: the one sent, or the one net and gross
// imply. The error names the field.
func ValidateMoney(field string, m Money, currency string) (pricing.Money, error) {
	valid, prob := validMoney(field, m, currency)
	if prob != nil {
		return pricing.Money{}, errors.New(prob.description)
	}
	return valid, nil
}

// validMoney checks an amount and resolves its tax rate: the one sent, or
// the one net and gross imply.
func validMoney(field string, m Money, currency string) (pricing.Money, *problem) {
	switch {
	case m.Currency != currency:
		return pricing.Money{}, reject(CodeCurrencyMismatch, "%s.currency must be the seller's currency %s, got %q", field, currency, m.Currency)
	case m.Net <= 0:
		return pricing.Money{}, reject(CodeInvalidPrice, "%s.net must be positive, got %d", field, m.Net)
	case m.Gross <= 0:
		return pricing.Money{}, reject(CodeInvalidPrice, "%s.gross must be positive, got %d", field, m.Gross)
	case m.Gross < m.Net:
		return pricing.Money{}, reject(CodeInvalidPrice, "%s.gross (%d) must not be below %s.net (%d)", field, m.Gross, field, m.Net)
	case m.Gross > MaxAmount:
		return pricing.Money{}, reject(CodeInvalidPrice, "%s.gross must be at most %d, got %d", field, int64(MaxAmount), m.Gross)
	}
	rate := pricing.TaxRateOf(m.Net, m.Gross)
	if m.TaxRate != nil {
		rate = *m.TaxRate
		if rate < 0 || rate > MaxTaxRate {
			return pricing.Money{}, reject(CodeInvalidPrice, "%s.tax_rate must be between 0 and %d (percent × 100), got %d", field, MaxTaxRate, rate)
		}
	}
	return pricing.Money{Currency: m.Currency, Net: m.Net, Gross: m.Gross, TaxRate: rate}, nil
}

// Identifier types that name an EAN and an MPN.
var (
	eanTypes = []string{"EAN", "EAN13", "EAN-13", "GTIN", "GTIN13", "GTIN-13"}
	mpnTypes = []string{"MPN"}
)

// identifier is the first identifier of one of the types, or "".
func identifier(ids []Identifier, types []string) string {
	for _, id := range ids {
		if slices.Contains(types, strings.ToUpper(strings.TrimSpace(id.Type))) {
			return id.ID
		}
	}
	return ""
}

// rejectionReference is the pair a rejection is reported under: the first
// well-formed one, else the first as sent.
func rejectionReference(refs []Reference) Reference {
	for _, r := range refs {
		if r.Valid() {
			return r
		}
	}
	if len(refs) > 0 {
		return refs[0]
	}
	return Reference{}
}

// Valid is a validated product and its position in its batch.
type Valid struct {
	Index   int
	Product Product
}

// ValidateBatch validates each product of a batch. A pair that an earlier
// valid product of the batch already lists rejects the later product.
func ValidateBatch(ins []ProductInput, currency string) ([]Valid, []Rejection) {
	var valid []Valid
	var rejections []Rejection
	owner := map[Reference]int{}
	for i, in := range ins {
		p, rej := Validate(in, currency)
		if rej == nil {
			rej = duplicateIn(owner, p.References, i)
		}
		if rej != nil {
			rej.Index = i
			rejections = append(rejections, *rej)
			continue
		}
		for _, r := range p.References {
			owner[r] = i
		}
		valid = append(valid, Valid{Index: i, Product: p})
	}
	return valid, rejections
}

func duplicateIn(owner map[Reference]int, refs []Reference, index int) *Rejection {
	for _, r := range refs {
		if earlier, ok := owner[r]; ok {
			return &Rejection{Reference: r, Code: CodeDuplicateReference,
				Description: fmt.Sprintf("(%s, %s) is also a reference of product %d of this batch", r.Source, r.Reference, earlier)}
		}
	}
	return nil
}
