package offers

import (
	"fmt"
	"net/url"
	"unicode/utf8"
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
func checkInput(p Request) error {
	fields := []textField{
		{"seller_offer_reference", &p.Reference, maxText},
		{"exit_redirect", p.ExitRedirect, maxURL},
		{"success_redirect", p.SuccessRedirect, maxURL},
		{"draft_offer_id", p.DraftOfferID, maxText},
	}
	if p.Reference == "" {
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
		fields = append(fields, textField{"customer.customer_group", c.Group, maxText},
			textField{"customer.full_name", c.FullName, maxText}, textField{"customer.phone_number", c.Phone, maxText},
			textField{"customer.email", c.Email, maxText})
		if co := c.Company; co != nil {
			fields = append(fields, textField{"customer.company.name", co.Name, maxText},
				textField{"customer.company.tax_number", co.TaxNumber, maxText}, textField{"customer.company.vat_number", co.VATNumber, maxText})
			if a := co.BillingAddress; a != nil {
				fields = append(fields, addressFields("customer.company.billing_address", a)...)
			}
		}
	}
	if a := p.ShippingAddress; a != nil {
		fields = append(fields, addressFields("shipping_address", a)...)
		fields = append(fields, textField{"shipping_address.recipient_name", a.Recipient, maxText})
	}
	if a := p.SalesAgent; a != nil {
		fields = append(fields, textField{"sales_agent.name", &a.Name, maxText}, textField{"sales_agent.email", &a.Email, maxText},
			textField{"sales_agent.phone", &a.Phone, maxText}, textField{"sales_agent.external_agent_id", a.ExternalID, maxText})
	}
	if s := p.Shipping; s != nil {
		fields = append(fields, textField{"shipping.seller_shipping_reference", &s.Reference, maxText})
	}
	if len(p.Lines) > maxLines {
		return invalid("field lines may hold at most %d lines, got %d", maxLines, len(p.Lines))
	}
	for i, l := range p.Lines {
		name := fmt.Sprintf("lines[%d]", i)
		if err := checkLine(name, l); err != nil {
			return err
		}
		if len(l.Sublines) > maxSublines {
			return invalid("field %s.sub_lines may hold at most %d sublines, got %d", name, maxSublines, len(l.Sublines))
		}
		for j, s := range l.Sublines {
			if err := checkLine(fmt.Sprintf("%s.sub_lines[%d]", name, j), s); err != nil {
				return err
			}
		}
	}
	for _, f := range fields {
		if f.value != nil && utf8.RuneCountInString(*f.value) > f.max {
			return invalid("field %s must be at most %d characters", f.name, f.max)
		}
	}
	return CheckMetadata("metadata", p.Metadata)
}

// addressFields are an address's texts (its recipient apart).
func addressFields(prefix string, a *Address) []textField {
	return []textField{
		{prefix + ".city", &a.City, maxText}, {prefix + ".country_code", &a.CountryCode, maxText},
		{prefix + ".line1", &a.Line1, maxText}, {prefix + ".line2", a.Line2, maxText},
		{prefix + ".postal_code", &a.PostalCode, maxText}, {prefix + ".region", a.Region, maxText},
	}
}

func checkLine(name string, l LineRequest) error {
	if l.Quantity < 1 || l.Quantity > maxQuantity {
		return invalid("field %s.quantity must be between 1 and %d, got %d", name, maxQuantity, l.Quantity)
	}
	ref := l.Product
	for _, f := range []textField{{name + ".title", &l.Title, maxText}, {name + ".subtitle", l.Subtitle, maxText},
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
