package offers

import (
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
)

// CustomerSide is what the end customer chose and told at checkout, and what
// they agreed to when they accepted.
type CustomerSide struct {
	// Choices are the customer's choices per line, for the lines they
	// chose for; the others take their default term and no services.
	Choices     []Choice     `json:"choices,omitempty"`
	EndCustomer *EndCustomer `json:"end_customer,omitempty"`
	// Agreement is set when the customer accepted.
	Agreement *Agreement `json:"agreement,omitempty"`
}

// Choice is the customer's choice for one line: a contract term of the
// line (pricing.LinePayNowTermID, LineRentTermID) and its services.
type Choice struct {
	LineID     string   `json:"line_id"`
	TermID     string   `json:"term_id"`
	ServiceIDs []string `json:"service_ids"`
}

// EndCustomer is the company and the person checking out as the customer
// completed them (validated by package checkout).
type EndCustomer struct {
	LegalForm          string   `json:"type"`
	Name               string   `json:"name"`
	RegistrationNumber string   `json:"company_registration_number,omitempty"`
	VATNumber          string   `json:"vat_number,omitempty"`
	TaxNumber          string   `json:"tax_number,omitempty"`
	BillingAddress     *Address `json:"billing_address,omitempty"`
	CompanyAddress     *Address `json:"company_address,omitempty"`
	Language           string   `json:"language"`
	NotVATRegistered   bool     `json:"not_vat_registered"`
	FirstName          string   `json:"first_name"`
	LastName           string   `json:"last_name"`
	Phone              Phone    `json:"phone_number"`
	PhoneType          string   `json:"phone_type,omitempty"`
}

// Phone is a parsed phone number in the forms the API shows.
type Phone struct {
	CountryCode         string `json:"country_code"`
	CountryPrefix       string `json:"country_prefix"`
	InternationalFormat string `json:"international_format"`
	National            string `json:"national"`
	Number              string `json:"number"`
}

// Agreement is what the customer accepted: per line the contract and the
// services at their prices, and the discount applied.
type Agreement struct {
	Lines    []AgreedLine     `json:"lines"`
	Discount *AppliedDiscount `json:"discount,omitempty"`
	// RiskSessionToken is the customer's device-risk session, if the
	// checkout collected one, for the risk review.
	RiskSessionToken string `json:"risk_session_token,omitempty"`
}

// AgreedLine is the contract one line (with its sublines) is had on.
type AgreedLine struct {
	LineID       string `json:"line_id"`
	ContractType string `json:"contract_type"`
	// Duration is the rent term in months; 0 when paying now.
	Duration int `json:"duration"`
	// UnitAmount is one unit with its sublines: the price when paying now,
	// the monthly rent when renting, before any discount.
	UnitAmount pricing.Money `json:"unit_amount"`
	// MonthlyDiscount is the line's share of the discount, for its quantity.
	MonthlyDiscount pricing.Money   `json:"monthly_discount"`
	Services        []AgreedService `json:"services"`
}

// AgreedService is a first-party service chosen with a line, priced per
// unit and month.
type AgreedService struct {
	ID      string        `json:"id"`
	Type    string        `json:"type"`
	Monthly pricing.Money `json:"monthly_price"`
}

// AppliedDiscount is a discount code applied at acceptance and what it
// takes off the rent each month.
type AppliedDiscount struct {
	ID   uuid.UUID `json:"id"`
	Code string    `json:"code"`
	// BasisPoints off each rented line's rent, or FixedNet off the rents
	// together in Currency: see pricing.Discount.
	BasisPoints int64  `json:"basis_points,omitempty"`
	FixedNet    int64  `json:"fixed_net,omitempty"`
	Currency    string `json:"currency,omitempty"`
	// Monthly is what the discount takes off the rent each month.
	Monthly pricing.Money `json:"monthly_amount"`
}

// CustomerChange is one change the customer makes to an open offer: the
// parts that are set replace what the offer had.
type CustomerChange struct {
	// Choices replace the choices of the lines they name.
	Choices         []Choice
	EndCustomer     *EndCustomer
	ShippingAddress *Address
}

// ApplyCustomerChange changes the document as the customer asked. The end
// customer's data also become the offer's customer (company, billing
// address, name, phone), as the seller sees it; the e-mail stays the
// seller's.
func (d *Document) ApplyCustomerChange(c CustomerChange) {
	if d.Checkout == nil {
		d.Checkout = &CustomerSide{}
	}
	d.Checkout.Choices = d.choicesWith(c.Choices)
	for _, choice := range c.Choices {
		d.selectContractType(choice)
	}
	if c.ShippingAddress != nil {
		address := *c.ShippingAddress
		d.ShippingAddress = &address
	}
	if e := c.EndCustomer; e != nil {
		d.Checkout.EndCustomer = e
		company := Company{
			BillingAddress: e.BillingAddress,
			Name:           &e.Name,
			TaxNumber:      optional.NonZero(e.TaxNumber),
			VATNumber:      optional.NonZero(e.VATNumber),
		}
		d.Customer.Company = &company
		fullName := strings.TrimSpace(e.FirstName + " " + e.LastName)
		d.Customer.FullName = &fullName
		d.Customer.Phone = optional.NonZero(e.Phone.Number)
	}
}

// choicesWith are the stored choices with those of the lines override
// names replaced by override's, as given (a line named twice stays twice,
// for the engine to refuse).
func (d Document) choicesWith(override []Choice) []Choice {
	var out []Choice
	if d.Checkout != nil {
		for _, c := range d.Checkout.Choices {
			if !slices.ContainsFunc(override, func(o Choice) bool { return o.LineID == c.LineID }) {
				out = append(out, c)
			}
		}
	}
	return append(out, override...)
}

// selectContractType notes the chosen contract type on the line and its
// sublines, which the Seller API shows as selected_contract_type.
func (d *Document) selectContractType(c Choice) {
	kind := string(pricing.ContractRent)
	if c.TermID == pricing.LinePayNowTermID(c.LineID) {
		kind = string(pricing.ContractPayNow)
	}
	for i := range d.Lines {
		if d.Lines[i].ID != c.LineID {
			continue
		}
		d.Lines[i].SelectedContractType = &kind
		for j := range d.Lines[i].Sublines {
			d.Lines[i].Sublines[j].SelectedContractType = &kind
		}
	}
}

// EndCustomer is the customer's completed data, nil until they gave it.
func (d Document) EndCustomer() *EndCustomer {
	if d.Checkout == nil {
		return nil
	}
	return d.Checkout.EndCustomer
}

// Agreement is what the customer accepted, nil until they did.
func (d Document) Agreement() *Agreement {
	if d.Checkout == nil {
		return nil
	}
	return d.Checkout.Agreement
}

// Currency is the currency of the offer's prices.
func (d Document) Currency() string {
	if len(d.Lines) == 0 {
		return ""
	}
	return d.Lines[0].Price.Currency
}

// CheckoutRequest is the offer as the pricing engine prices the customer's
// choices: its lines at the prices they were offered at (the document's
// item summaries, so a later change of the rates changes no offer), its
// shipping, the stored choices with the ones given overriding them, and
// the discount, if any.
func (d Document) CheckoutRequest(override []Choice, discount *pricing.Discount) pricing.CustomerRequest {
	r := pricing.CustomerRequest{Currency: d.Currency(), Shipping: pricing.Money{Currency: d.Currency()}, Discount: discount}
	if d.Shipping != nil {
		r.Shipping = d.Shipping.Price
	}
	var items []ItemSummary
	if d.Pricing != nil {
		items = d.Pricing.Items
	}
	for i, l := range d.Lines {
		line := pricing.OfferLine{ID: l.ID, Category: l.PricingCategory, Quantity: l.Quantity}
		if i < len(items) && items[i].LineID == l.ID {
			line.Price = items[i].linePrice(l.taxRate())
		}
		r.Lines = append(r.Lines, line)
	}
	for _, c := range d.choicesWith(override) {
		r.Selections = append(r.Selections, pricing.Selection{LineID: c.LineID, TermID: c.TermID, ServiceIDs: c.ServiceIDs})
	}
	return r
}

// taxRate is the tax rate of the line's product: its pay-now term keeps
// it where the document's prices do not.
func (l Line) taxRate() int64 {
	if l.Terms != nil && l.Terms.PayNow != nil {
		return l.Terms.PayNow.Amount.TaxRate
	}
	return pricing.TaxRateOf(l.Price.Net, l.Price.Gross)
}

// linePrice is the engine's price of a line from its summary, each amount
// with its tax rate again: the line's when it relates the amount's net and
// gross, else the rate they imply (sublines taxed otherwise).
func (s ItemSummary) linePrice(rate int64) pricing.LinePrice {
	withTax := func(m pricing.Money) pricing.Money {
		if pricing.FromNet(m.Currency, m.Net, rate).Gross == m.Gross {
			m.TaxRate = rate
		} else {
			m.TaxRate = pricing.TaxRateOf(m.Net, m.Gross)
		}
		return m
	}
	terms := func(in []RentTerm) []pricing.Term {
		if len(in) == 0 {
			return nil
		}
		out := make([]pricing.Term, len(in))
		for i, t := range in {
			out[i] = pricing.Term{Duration: t.Duration, Monthly: withTax(t.Monthly)}
		}
		return out
	}
	return pricing.LinePrice{
		PayNow:                  withTax(s.PayNow.Amount),
		PayNowExcludingSublines: withTax(s.PayNowExcludingSublines.Amount),
		TotalPayNow:             withTax(s.TotalPayNow.Amount),
		Rent:                    terms(s.Rent),
		RentExcludingSublines:   terms(s.RentExcludingSublines),
		TotalRent:               terms(s.TotalRent),
	}
}

// AgreementOf is what the customer accepts when the offer is priced as
// priced: each line's selected term and services, and the discount.
func AgreementOf(priced pricing.CustomerPrices, discount *AppliedDiscount, riskSession string) Agreement {
	a := Agreement{Discount: discount, RiskSessionToken: riskSession}
	for _, l := range priced.Lines {
		line := AgreedLine{
			LineID:          l.LineID,
			ContractType:    string(l.Selected.Type),
			Duration:        l.Selected.Duration,
			UnitAmount:      l.Selected.Amount,
			MonthlyDiscount: l.MonthlyDiscount,
			Services:        []AgreedService{},
		}
		for _, s := range l.SelectedServices {
			line.Services = append(line.Services, AgreedService{ID: s.ID, Type: s.Type, Monthly: s.Monthly})
		}
		a.Lines = append(a.Lines, line)
	}
	return a
}

// Pricing is the discount as the engine applies it.
func (a AppliedDiscount) Pricing() pricing.Discount {
	return pricing.Discount{ID: a.ID.String(), BasisPoints: a.BasisPoints, FixedNet: a.FixedNet, Currency: a.Currency}
}

// AppliedDiscountOf is a discount code applied as the engine applies d.
func AppliedDiscountOf(id uuid.UUID, code string, d pricing.Discount) AppliedDiscount {
	return AppliedDiscount{ID: id, Code: code, BasisPoints: d.BasisPoints, FixedNet: d.FixedNet, Currency: d.Currency}
}
