package console

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/services"
)

// offerForm is the offer builder's form as the agent filled it: the
// customer's fields by name, and the basket's lines. It round-trips
// through every request of the builder, so the builder works without
// JavaScript and keeps nothing on the server until the offer is created.
type offerForm struct {
	Values map[string]string
	Lines  []formLine
}

// formLine is one line of the basket: the catalog product it names, and
// what the agent may change.
type formLine struct {
	Source, Reference, Title string
	Quantity, Price          string
	Currency                 string
}

// customerFields are the builder's fields of the customer and the offer,
// by form name, each with the Seller API's field it fills (the path the
// API's refusals name) and its input's kind.
var customerFields = []struct {
	name, path, kind, autocomplete string
	required                       bool
}{
	{"company", "customer.company.name", "text", "organization", true},
	{"vat_number", "customer.company.vat_number", "text", "off", false},
	{"tax_number", "customer.company.tax_number", "text", "off", false},
	{"full_name", "customer.full_name", "text", "name", true},
	{"email", "customer.email", "email", "email", true},
	{"phone", "customer.phone_number", "tel", "tel", false},
	{"billing_line1", "customer.company.billing_address.line1", "text", "address-line1", false},
	{"billing_postal_code", "customer.company.billing_address.postal_code", "text", "postal-code", false},
	{"billing_city", "customer.company.billing_address.city", "text", "address-level2", false},
	{"billing_country", "customer.company.billing_address.country_code", "text", "country", false},
	{"agent_name", "sales_agent.name", "text", "off", true},
	{"agent_phone", "sales_agent.phone", "tel", "off", true},
	{"reference", "seller_offer_reference", "text", "off", true},
}

// offerFields are the offer's own fields that are not text inputs.
var offerFields = []struct{ name, path string }{
	{"channel", "sales_channel"},
	{"valid_days", "expires_at"},
}

// portalChannels are the sales channels a portal offer is made in: on the
// phone, or at the counter.
var portalChannels = []string{string(sellerapi.Telesales), string(sellerapi.InStorePos)}

// validDays are how long an offer may stay open, in days; the first is
// the builder's default.
var validDays = []int{7, 1, 3, 14, 30}

// readOfferForm reads the builder's form from a request.
func readOfferForm(c *fiber.Ctx) offerForm {
	f := offerForm{Values: map[string]string{}}
	for _, fd := range customerFields {
		f.Values[fd.name] = strings.TrimSpace(c.FormValue(fd.name))
	}
	for _, fd := range offerFields {
		f.Values[fd.name] = c.FormValue(fd.name)
	}
	f.Values["q"] = c.FormValue("q")
	args := c.Request().PostArgs()
	multi := func(name string) []string {
		var out []string
		for _, v := range args.PeekMulti(name) {
			out = append(out, strings.TrimSpace(string(v)))
		}
		return out
	}
	sources, refs, titles := multi("line_source"), multi("line_reference"), multi("line_title")
	quantities, prices, currencies := multi("line_quantity"), multi("line_price"), multi("line_currency")
	for i := range sources {
		if i >= len(refs) || i >= len(titles) || i >= len(quantities) || i >= len(prices) || i >= len(currencies) {
			break
		}
		f.Lines = append(f.Lines, formLine{Source: sources[i], Reference: refs[i], Title: titles[i],
			Quantity: quantities[i], Price: prices[i], Currency: currencies[i]})
	}
	return f
}

// newOfferForm is an empty builder's form: the channel and validity
// preset, a reference of its own, the agent's name and phone from their
// sales profile (their address as the name while they have none). The
// agent may still change both for one offer.
func newOfferForm(u console.User, profile services.SalesProfile) offerForm {
	f := offerForm{Values: map[string]string{
		"channel": portalChannels[0], "valid_days": strconv.Itoa(validDays[0]),
		"reference": "portal-" + strconv.FormatInt(time.Now().UnixMilli(), 36), "agent_name": u.Email,
	}}
	if profile.FullName != "" {
		f.Values["agent_name"], f.Values["agent_phone"] = profile.FullName, profile.Phone
	}
	return f
}

// payload is the Seller API's create payload of the form, the signed-in
// user its sales agent; fields the form cannot read (a quantity that is
// not a number) are refused by name, as problems by form field.
func (f offerForm) payload(u console.User, now time.Time) (sellerapi.OfferCreateRequest, map[string]string) {
	problems := map[string]string{}
	v := f.Values
	if !slices.Contains(portalChannels, v["channel"]) {
		// The API would take ecommerce too; the portal sells on the phone
		// and at the counter.
		problems["channel"] = "portal_offer.error.channel"
	}
	days, err := strconv.Atoi(v["valid_days"])
	if err != nil || days < 1 || days > 30 {
		problems["valid_days"] = "portal_offer.error.valid_days"
	}
	p := sellerapi.OfferCreateRequest{
		SellerOfferReference: v["reference"],
		SalesChannel:         sellerapi.SalesChannel(v["channel"]),
		ExpiresAt:            now.Add(time.Duration(days) * 24 * time.Hour).UTC().Truncate(time.Second),
		SalesAgent:           &sellerapi.SalesAgent{Email: openapi_types.Email(u.Email), Name: v["agent_name"], Phone: v["agent_phone"]},
		Lines:                []sellerapi.OfferLineInput{},
	}
	customer := sellerapi.Customer{FullName: given(v["full_name"]), PhoneNumber: given(v["phone"])}
	if email, ok := emailOf(v["email"]); ok {
		customer.Email = email
	} else {
		problems["email"] = "portal_offer.error.email"
	}
	company := sellerapi.Company{Name: given(v["company"]), VatNumber: given(v["vat_number"]), TaxNumber: given(v["tax_number"])}
	if v["billing_line1"]+v["billing_postal_code"]+v["billing_city"]+v["billing_country"] != "" {
		company.BillingAddress = &sellerapi.Address{Line1: v["billing_line1"], PostalCode: v["billing_postal_code"],
			City: v["billing_city"], CountryCode: strings.ToUpper(v["billing_country"])}
	}
	customer.Company = &company
	p.Customer = &customer
	for i, l := range f.Lines {
		quantity, err := strconv.ParseInt(l.Quantity, 10, 64)
		if err != nil {
			problems[lineField("quantity", i)] = "portal_offer.error.quantity"
		}
		net, ok := parseAmount(l.Price)
		if !ok {
			problems[lineField("price", i)] = "portal_offer.error.price"
		}
		p.Lines = append(p.Lines, sellerapi.OfferLineInput{
			Title: l.Title, Quantity: quantity,
			SellerProductReference: sellerapi.SellerProductReference{Source: l.Source, Reference: l.Reference},
			Price:                  sellerapi.OfferPriceInput{Currency: l.Currency, Net: net},
		})
	}
	return p, problems
}

// lineField is the form field of a line's value.
func lineField(name string, i int) string { return fmt.Sprintf("line_%s_%d", name, i) }

// given is a text field's value, absent when it is empty.
func given(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// emailOf is an e-mail field's value, absent when it is empty; false
// when it is no address (the API's type cannot even carry it).
func emailOf(s string) (*openapi_types.Email, bool) {
	if s == "" {
		return nil, true
	}
	e := openapi_types.Email(s)
	if _, err := json.Marshal(e); err != nil {
		return nil, false
	}
	return &e, true
}

// parseAmount reads an amount as an agent types it, in any of the
// console's languages ("5000", "5.000,00", "5,000.00", "49,9"), into
// cents: the last separator followed by one or two digits is the decimal
// one, the others group thousands.
func parseAmount(s string) (int64, bool) {
	s = strings.NewReplacer(" ", "", "\u00a0", "", "€", "").Replace(s)
	whole, cents := s, ""
	if i := strings.LastIndexAny(s, ".,"); i >= 0 && len(s)-i-1 <= 2 && len(s)-i-1 > 0 {
		whole, cents = s[:i], s[i+1:]
	}
	whole = strings.NewReplacer(".", "", ",", "").Replace(whole)
	if whole == "" || strings.Trim(whole, "0123456789") != "" || strings.Trim(cents, "0123456789") != "" || len(whole) > 12 {
		return 0, false
	}
	for len(cents) < 2 {
		cents += "0"
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	c, _ := strconv.ParseInt(cents, 10, 64)
	return w*100 + c, true
}

// amountText writes cents as the builder's price field shows them, with
// the language's decimal separator and no grouping, so it reads back.
func amountText(lang pricing.Language, cents int64) string {
	sep := "."
	if lang != pricing.English {
		sep = ","
	}
	return fmt.Sprintf("%d%s%02d", cents/100, sep, cents%100)
}
