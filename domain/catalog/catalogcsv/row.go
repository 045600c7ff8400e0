package catalogcsv

import (
	"fmt"
	"math/bits"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tenurehq/tenure/domain/catalog"
)

// Fields is a set of optional columns whose cell was not empty.
type Fields uint32

// The optional columns, or column groups, a row can fill.
const (
	FieldCurrency Fields = 1 << iota
	FieldManufacturer
	FieldSubtitle
	FieldEAN
	FieldMPN
	// FieldCategory: seller_category_id or seller_category_name.
	FieldCategory
	FieldDescription
	// FieldBaseRental: base_rental_price_gross, base_rental_price_net or both.
	FieldBaseRental
	FieldImageURL
	FieldShopURL
	FieldType
	FieldDetails
)

// Row is one valid CSV row: the product it describes and which optional
// cells it filled.
type Row struct {
	Product catalog.ProductInput
	Present Fields
}

// Problem is why a row is rejected: the column at fault ("" when the row as
// a whole) and a reason a seller understands. The reason does not repeat
// the column, so it reads well after it: "price_gross: must not be below
// price_net (12.00)".
type Problem struct{ Column, Reason string }

// The identifier types the CSV's ean and mpn columns become; catalog.Validate
// picks them out as the product's EAN and MPN.
const (
	typeEAN = "EAN"
	typeMPN = "MPN"
)

// productTypes are the values seller_product_type accepts.
var productTypes = []string{"hardware", "software", "service", "hardware_built_to_order"}

// rowParser turns the trimmed cells of one record into a Row.
type rowParser struct {
	cells    [NumColumns]string
	currency string
	row      Row
}

// steps are the checks of a row in the order their problems are reported:
// emptiness of the required cells and text lengths first, then each column
// in the contract's order.
var steps = [...]func(*rowParser) *Problem{
	(*rowParser).required,
	(*rowParser).texts,
	(*rowParser).references,
	(*rowParser).active,
	(*rowParser).price,
	(*rowParser).currencyCode,
	(*rowParser).identifiersAndCategory,
	(*rowParser).baseRental,
	(*rowParser).urls,
	(*rowParser).productType,
	(*rowParser).details,
}

// Parse validates one data record against the header. currency is the
// seller's currency, used when the currency cell is blank.
func (h Header) Parse(record []string, currency string) (Row, *Problem) {
	if len(record) != h.width {
		return Row{}, &Problem{Reason: fmt.Sprintf("the row has %d fields, the header has %d", len(record), h.width)}
	}
	p := rowParser{currency: currency}
	for c := range NumColumns {
		s := h.cell(record, c)
		switch {
		case !utf8.ValidString(s):
			return Row{}, problem(c, "is not valid UTF-8 text: save the file as UTF-8")
		case strings.IndexByte(s, 0) >= 0:
			return Row{}, problem(c, "contains a NUL character")
		}
		p.cells[c] = strings.TrimSpace(s)
	}
	for _, step := range steps {
		if prob := step(&p); prob != nil {
			return Row{}, prob
		}
	}
	return p.row, nil
}

func problem(c Column, format string, args ...any) *Problem {
	return &Problem{Column: columnNames[c], Reason: fmt.Sprintf(format, args...)}
}

// present marks an optional column as filled when its cell is not empty.
func (p *rowParser) present(c Column, f Fields) bool {
	if p.cells[c] == "" {
		return false
	}
	p.row.Present |= f
	return true
}

func (p *rowParser) required() *Problem {
	for c := range numRequired {
		if p.cells[c] == "" {
			return problem(c, "must not be empty")
		}
	}
	return nil
}

// textLimits are the columns taken as plain text and their length limits.
var textLimits = []struct {
	column Column
	max    int
}{
	{ColTitle, catalog.MaxTextLength},
	{ColManufacturer, catalog.MaxTextLength},
	{ColSubtitle, catalog.MaxTextLength},
	{ColEAN, catalog.MaxTextLength},
	{ColMPN, catalog.MaxTextLength},
	{ColCategoryID, catalog.MaxTextLength},
	{ColCategoryName, catalog.MaxTextLength},
	{ColCategoryParentID, catalog.MaxTextLength},
	{ColDescription, catalog.MaxDescriptionLength},
}

// optionalText is an optional text column and the product field it fills
// when its cell is not empty.
type optionalText struct {
	column Column
	field  Fields
	dst    *string
}

func (p *rowParser) texts() *Problem {
	for _, t := range textLimits {
		if prob := maxLength(t.column, p.cells[t.column], t.max); prob != nil {
			return prob
		}
	}
	pr := &p.row.Product
	pr.Title = p.cells[ColTitle]
	for _, t := range []optionalText{
		{ColManufacturer, FieldManufacturer, &pr.Manufacturer},
		{ColSubtitle, FieldSubtitle, &pr.Subtitle},
		{ColDescription, FieldDescription, &pr.Description},
	} {
		if p.present(t.column, t.field) {
			*t.dst = p.cells[t.column]
		}
	}
	return nil
}

// maxLength counts characters, not bytes, as catalog.Validate does.
func maxLength(c Column, s string, limit int) *Problem {
	if len(s) <= limit {
		return nil
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return problem(c, "must be at most %d characters, got %d", limit, n)
	}
	return nil
}

// splitList splits a cell of pipe-separated values, refusing more values
// than a product may list before allocating them.
func splitList(c Column, cell string) ([]string, *Problem) {
	if n := strings.Count(cell, "|") + 1; n > catalog.MaxListLength {
		return nil, problem(c, "has %d values, at most %d are allowed", n, catalog.MaxListLength)
	}
	return strings.Split(cell, "|"), nil
}

func (p *rowParser) references() *Problem {
	refs, prob := splitList(ColReference, p.cells[ColReference])
	if prob != nil {
		return prob
	}
	sources, prob := splitList(ColReferenceSource, p.cells[ColReferenceSource])
	if prob != nil {
		return prob
	}
	if len(refs) != len(sources) {
		return problem(ColReference, "has %d values but reference_source has %d: give one source per reference, both joined by |", len(refs), len(sources))
	}
	out := make([]catalog.Reference, len(refs))
	for i := range refs {
		r := catalog.Reference{Source: strings.TrimSpace(sources[i]), Reference: strings.TrimSpace(refs[i])}
		for _, part := range []struct {
			column Column
			value  string
		}{{ColReference, r.Reference}, {ColReferenceSource, r.Source}} {
			if part.value == "" {
				return problem(part.column, "value %d is empty", i+1)
			}
			if prob := maxLength(part.column, part.value, catalog.MaxTextLength); prob != nil {
				return prob
			}
		}
		out[i] = r
	}
	p.row.Product.References = out
	return nil
}

func (p *rowParser) active() *Problem {
	v, err := ParseBool(p.cells[ColIsActive])
	if err != nil {
		return problem(ColIsActive, "%v", err)
	}
	p.row.Product.IsActive = v
	return nil
}

// amount reads a price cell that must be above zero.
func (p *rowParser) amount(c Column) (int64, *Problem) {
	v, err := ParseAmount(p.cells[c])
	if err != nil {
		return 0, problem(c, "%v", err)
	}
	if v == 0 {
		return 0, problem(c, "must be greater than 0")
	}
	return v, nil
}

func (p *rowParser) price() *Problem {
	gross, prob := p.amount(ColPriceGross)
	if prob != nil {
		return prob
	}
	net, prob := p.amount(ColPriceNet)
	if prob != nil {
		return prob
	}
	if gross < net {
		return problem(ColPriceGross, "must not be below price_net (%s), got %s", formatAmount(net), formatAmount(gross))
	}
	p.row.Product.Price = catalog.Money{Net: net, Gross: gross}
	return nil
}

// currencyCode sets the currency of the prices; it runs after them.
func (p *rowParser) currencyCode() *Problem {
	code := p.currency
	if p.present(ColCurrency, FieldCurrency) {
		code = p.cells[ColCurrency]
		if len(code) != 3 || strings.ContainsFunc(code, func(r rune) bool { return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') }) {
			return problem(ColCurrency, "must be a three-letter currency code such as EUR, got %q", code)
		}
		code = strings.ToUpper(code)
	}
	p.row.Product.Price.Currency = code
	return nil
}

func (p *rowParser) identifiersAndCategory() *Problem {
	pr := &p.row.Product
	if p.present(ColEAN, FieldEAN) {
		pr.Identifiers = append(pr.Identifiers, catalog.Identifier{Type: typeEAN, ID: p.cells[ColEAN]})
	}
	if p.present(ColMPN, FieldMPN) {
		pr.Identifiers = append(pr.Identifiers, catalog.Identifier{Type: typeMPN, ID: p.cells[ColMPN]})
	}
	id, name, parent := p.cells[ColCategoryID], p.cells[ColCategoryName], p.cells[ColCategoryParentID]
	switch {
	case id != "" || name != "":
		p.row.Present |= FieldCategory
		pr.Categories = []catalog.Category{{ID: id, Name: name, ParentID: parent}}
	case parent != "":
		// Dropping it silently would hide a typo in the other two.
		return problem(ColCategoryParentID, "needs seller_category_id or seller_category_name in the same row")
	}
	return nil
}

// baseRental reads the base rental price. When only one of its amounts is
// given, the other follows from the list price's net/gross ratio, so the
// rental carries the product's tax rate.
func (p *rowParser) baseRental() *Problem {
	grossSet, netSet := p.cells[ColBaseRentalGross] != "", p.cells[ColBaseRentalNet] != ""
	if !grossSet && !netSet {
		return nil
	}
	var gross, net int64
	var prob *Problem
	if grossSet {
		if gross, prob = p.amount(ColBaseRentalGross); prob != nil {
			return prob
		}
	}
	if netSet {
		if net, prob = p.amount(ColBaseRentalNet); prob != nil {
			return prob
		}
	}
	list := p.row.Product.Price
	var ok bool
	switch {
	case grossSet && netSet:
		if gross < net {
			return problem(ColBaseRentalGross, "must not be below base_rental_price_net (%s), got %s", formatAmount(net), formatAmount(gross))
		}
	case grossSet:
		// Net at most gross: it cannot exceed the maximum.
		net, _ = scale(gross, list.Net, list.Gross)
	default:
		if gross, ok = scale(net, list.Gross, list.Net); !ok {
			return problem(ColBaseRentalNet, "is too large: the gross amount derived from it with the list price's tax exceeds %s", formatAmount(catalog.MaxAmount))
		}
	}
	p.row.Present |= FieldBaseRental
	p.row.Product.BaseRentalPrice = &catalog.Money{Currency: list.Currency, Net: net, Gross: gross}
	return nil
}

// scale is amount × num / den rounded half up, at least 1, and false when
// it exceeds catalog.MaxAmount. The product is computed in 128 bits: amounts
// up to catalog.MaxAmount overflow 64.
func scale(amount, num, den int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(amount), uint64(num))
	lo, carry := bits.Add64(lo, uint64(den/2), 0)
	hi += carry
	if hi >= uint64(den) {
		return 0, false
	}
	q, _ := bits.Div64(hi, lo, uint64(den))
	if q > catalog.MaxAmount {
		return 0, false
	}
	return max(int64(q), 1), true
}

func (p *rowParser) urls() *Problem {
	pr := &p.row.Product
	for _, u := range []optionalText{
		{ColImageURL, FieldImageURL, &pr.ImageURL},
		{ColShopURL, FieldShopURL, &pr.ShopURL},
	} {
		if !p.present(u.column, u.field) {
			continue
		}
		s := p.cells[u.column]
		if prob := maxLength(u.column, s, catalog.MaxURLLength); prob != nil {
			return prob
		}
		if strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
			return problem(u.column, "must not contain spaces: write them as %%20")
		}
		parsed, err := url.Parse(s)
		if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Hostname() == "" {
			return problem(u.column, "must be a full http or https address, such as https://shop.example/products/42")
		}
		*u.dst = s
	}
	return nil
}

func (p *rowParser) productType() *Problem {
	if !p.present(ColType, FieldType) {
		return nil
	}
	t := strings.ToLower(p.cells[ColType])
	for _, known := range productTypes {
		if t == known {
			p.row.Product.Type = t
			return nil
		}
	}
	return problem(ColType, "must be one of %s, or blank; got %q", strings.Join(productTypes, ", "), p.cells[ColType])
}

func (p *rowParser) details() *Problem {
	if !p.present(ColDetails, FieldDetails) {
		return nil
	}
	pairs, prob := splitList(ColDetails, p.cells[ColDetails])
	if prob != nil {
		return prob
	}
	out := make([]catalog.Detail, len(pairs))
	for i, pair := range pairs {
		key, value, found := strings.Cut(pair, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !found || key == "" {
			return problem(ColDetails, "pair %d (%q) is not key=value: write pairs such as memory=16 GB|colour=black", i+1, pair)
		}
		for _, s := range []string{key, value} {
			if n := utf8.RuneCountInString(s); n > catalog.MaxTextLength {
				return problem(ColDetails, "pair %d: keys and values must be at most %d characters, got %d", i+1, catalog.MaxTextLength, n)
			}
		}
		out[i] = catalog.Detail{Property: key, Value: value}
	}
	p.row.Product.Details = out
	return nil
}

// Over is the product a row makes of an existing catalog product: required
// columns replace, optional columns replace only when present (an empty
// optional cell keeps the existing value).
func (r Row) Over(existing catalog.ProductInput) catalog.ProductInput {
	out, in := existing, r.Product
	out.Title, out.References, out.IsActive, out.Price = in.Title, in.References, in.IsActive, in.Price
	for _, f := range []struct {
		field    Fields
		dst, src *string
	}{
		{FieldManufacturer, &out.Manufacturer, &in.Manufacturer},
		{FieldSubtitle, &out.Subtitle, &in.Subtitle},
		{FieldDescription, &out.Description, &in.Description},
		{FieldImageURL, &out.ImageURL, &in.ImageURL},
		{FieldShopURL, &out.ShopURL, &in.ShopURL},
		{FieldType, &out.Type, &in.Type},
	} {
		if r.Present&f.field != 0 {
			*f.dst = *f.src
		}
	}
	if r.Present&FieldBaseRental != 0 {
		out.BaseRentalPrice = in.BaseRentalPrice
	}
	if r.Present&FieldCategory != 0 {
		out.Categories = in.Categories
	}
	if r.Present&FieldDetails != 0 {
		out.Details = in.Details
	}
	if r.Present&(FieldEAN|FieldMPN) != 0 {
		out.Identifiers = r.identifiersOver(existing.Identifiers)
	}
	return out
}

// identifiersOver puts the row's EAN and MPN first, so catalog.Validate
// picks them whatever other EAN-like types the product lists, and keeps the
// existing identifiers except the EAN or MPN the row replaces.
func (r Row) identifiersOver(existing []catalog.Identifier) []catalog.Identifier {
	out := append([]catalog.Identifier(nil), r.Product.Identifiers...)
	for _, id := range existing {
		switch strings.ToUpper(strings.TrimSpace(id.Type)) {
		case typeEAN:
			if r.Present&FieldEAN != 0 {
				continue
			}
		case typeMPN:
			if r.Present&FieldMPN != 0 {
				continue
			}
		}
		out = append(out, id)
	}
	return out
}
