package offers

import (
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/tenurehq/tenure/api/sellerapi"
)

// Limits Tenure puts on offer payloads where the contract sets none.
const (
	maxText          = 255
	maxURL           = 2048
	maxLines         = 100
	maxSublines      = 20
	maxQuantity      = 10000
	maxMetadataKeys  = 50
	maxMetadataKey   = 100
	maxMetadataValue = 400
)

// textField is one text of a payload with its name and limit.
type textField struct {
	name  string
	value *string
	max   int
}

// checkInput refuses texts and numbers beyond Tenure's limits, naming the
// field; the schema has already checked types and required fields.
func checkInput(p sellerapi.OfferCreateRequest) error {
	fields := []textField{
		{"seller_offer_reference", &p.SellerOfferReference, maxText},
		{"exit_redirect", p.ExitRedirect, maxURL},
		{"success_redirect", p.SuccessRedirect, maxURL},
		{"draft_offer_id", p.DraftOfferId, maxText},
	}
	if p.SellerOfferReference == "" {
		return invalid("field seller_offer_reference must not be empty")
	}
	for _, u := range []textField{{"exit_redirect", p.ExitRedirect, maxURL}, {"success_redirect", p.SuccessRedirect, maxURL}} {
		if u.value == nil {
			continue
		}
		if parsed, err := url.Parse(*u.value); err != nil || !parsed.IsAbs() || (parsed.Scheme != "http" && parsed.Scheme != "https") {
			return invalid("field %s must be an absolute http(s) URL", u.name)
		}
	}
	if c := p.Customer; c != nil {
		fields = append(fields, textField{"customer.customer_group", c.CustomerGroup, maxText},
			textField{"customer.full_name", c.FullName, maxText}, textField{"customer.phone_number", c.PhoneNumber, maxText})
		if c.Email != nil {
			email := string(*c.Email)
			fields = append(fields, textField{"customer.email", &email, maxText})
		}
		if co := c.Company; co != nil {
			fields = append(fields, textField{"customer.company.name", co.Name, maxText},
				textField{"customer.company.tax_number", co.TaxNumber, maxText}, textField{"customer.company.vat_number", co.VatNumber, maxText})
			if a := co.BillingAddress; a != nil {
				fields = append(fields, addressFields("customer.company.billing_address", a.City, a.CountryCode, a.Line1, a.Line2, a.PostalCode, a.Region)...)
			}
		}
	}
	if a := p.ShippingAddress; a != nil {
		fields = append(fields, addressFields("shipping_address", a.City, a.CountryCode, a.Line1, a.Line2, a.PostalCode, a.Region)...)
		fields = append(fields, textField{"shipping_address.recipient_name", a.RecipientName, maxText})
	}
	if a := p.SalesAgent; a != nil {
		email := string(a.Email)
		fields = append(fields, textField{"sales_agent.name", &a.Name, maxText}, textField{"sales_agent.email", &email, maxText},
			textField{"sales_agent.phone", &a.Phone, maxText}, textField{"sales_agent.external_agent_id", a.ExternalAgentId, maxText})
	}
	if s := p.Shipping; s != nil {
		fields = append(fields, textField{"shipping.seller_shipping_reference", &s.SellerShippingReference, maxText})
	}
	if len(p.Lines) > maxLines {
		return invalid("field lines may hold at most %d lines, got %d", maxLines, len(p.Lines))
	}
	for i, l := range p.Lines {
		name := fmt.Sprintf("lines[%d]", i)
		if err := checkLine(name, l.Title, l.Subtitle, l.Quantity, l.SellerProductReference); err != nil {
			return err
		}
		subs := deref(l.SubLines)
		if len(subs) > maxSublines {
			return invalid("field %s.sub_lines may hold at most %d sublines, got %d", name, maxSublines, len(subs))
		}
		for j, s := range subs {
			if err := checkLine(fmt.Sprintf("%s.sub_lines[%d]", name, j), s.Title, s.Subtitle, s.Quantity, s.SellerProductReference); err != nil {
				return err
			}
		}
	}
	for _, f := range fields {
		if f.value != nil && utf8.RuneCountInString(*f.value) > f.max {
			return invalid("field %s must be at most %d characters", f.name, f.max)
		}
	}
	return CheckMetadata("metadata", deref(p.Metadata))
}

func addressFields(prefix string, city, country, line1 string, line2 *string, postal string, region *string) []textField {
	return []textField{
		{prefix + ".city", &city, maxText}, {prefix + ".country_code", &country, maxText},
		{prefix + ".line1", &line1, maxText}, {prefix + ".line2", line2, maxText},
		{prefix + ".postal_code", &postal, maxText}, {prefix + ".region", region, maxText},
	}
}

func checkLine(name, title string, subtitle *string, quantity int64, ref sellerapi.SellerProductReference) error {
	if quantity < 1 || quantity > maxQuantity {
		return invalid("field %s.quantity must be between 1 and %d, got %d", name, maxQuantity, quantity)
	}
	for _, f := range []textField{{name + ".title", &title, maxText}, {name + ".subtitle", subtitle, maxText},
		{name + ".seller_product_reference.source", &ref.Source, maxText}, {name + ".seller_product_reference.reference", &ref.Reference, maxText}} {
		if f.value != nil && utf8.RuneCountInString(*f.value) > f.max {
			return invalid("field %s must be at most %d characters", f.name, f.max)
		}
	}
	return nil
}

// CheckMetadata refuses metadata beyond Tenure's limits (offers' and
// orders'): at most 50 keys of at most 100 characters, each value at most
// 400 characters.
func CheckMetadata(field string, m map[string]string) error {
	if len(m) > maxMetadataKeys {
		return invalid("field %s may hold at most %d keys, got %d", field, maxMetadataKeys, len(m))
	}
	for k, v := range m {
		if k == "" || utf8.RuneCountInString(k) > maxMetadataKey {
			return invalid("field %s: keys must be 1 to %d characters", field, maxMetadataKey)
		}
		if utf8.RuneCountInString(v) > maxMetadataValue {
			return invalid("field %s.%s must be at most %d characters", field, k, maxMetadataValue)
		}
	}
	return nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
