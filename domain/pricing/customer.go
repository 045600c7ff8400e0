package pricing

import (
	"errors"
	"fmt"
)

// OfferLine is an offer line as priced for the seller, which the customer
// chooses a contract term and services for.
type OfferLine struct {
	ID string
	// Category is the pricing category of the line's product; it decides
	// the services offered.
	Category string
	Quantity int64
	// Price is the line as PriceLine priced it, sublines included.
	Price LinePrice
}

// CustomerRequest is an offer with the customer's choices.
type CustomerRequest struct {
	Currency string
	// Shipping is the price of shipping; zero when there is none.
	Shipping Money
	Lines    []OfferLine
	// Selections choose per line; a line without one gets its default
	// term and no services.
	Selections []Selection
	// Discount is applied when set; see Discount.
	Discount *Discount
}

// ContractTerm is one way to pay for a line. Amount is per unit with its
// sublines: the price when paying now, the monthly rent when renting.
type ContractTerm struct {
	ID   string
	Type ContractType
	// Duration is the rent term in months; 0 when paying now.
	Duration int
	Amount   Money
}

// RentOption is the rent term a line shows (the selected one, else its
// default) with every term length the line can be rented for.
type RentOption struct {
	ContractTerm
	Durations []int
}

// LineService is a first-party service offered with a line, priced per
// unit in the offer's currency at the tax rate of the line's rent.
type LineService struct {
	ID            string
	Type          string
	Monthly       Money
	Deductible    Money
	AccessoryType string
	Images        ServiceImages
}

// CustomerLine is a line as the customer sees and chose it.
type CustomerLine struct {
	LineID string
	// Terms are all terms of the line: pay now, then rent from the
	// shortest term.
	Terms []ContractTerm
	// PayNow and Rent are the line's available terms; Rent is nil when
	// the line cannot be rented.
	PayNow ContractTerm
	Rent   *RentOption
	// Services are offered only with lines that can be rented.
	Services         []LineService
	Selected         ContractTerm
	SelectedServices []LineService
	// RequiresSerialNumber follows the shipment rule: the units of a line
	// whose product offers rent are shipped with serial numbers, even when
	// bought.
	RequiresSerialNumber bool

	// Once is what the line costs at once, for its quantity: its price
	// when bought, zero when rented.
	Once Money
	// MonthlyRent is the line's rent for its quantity before the discount;
	// zero when bought.
	MonthlyRent Money
	// DiscountID names the discount applied to a rented line (its share
	// may round to zero); MonthlyDiscount is that share.
	DiscountID      string
	MonthlyDiscount Money
	// MonthlyServices are the selected services for the line's quantity.
	MonthlyServices Money
	// Monthly is MonthlyRent − MonthlyDiscount + MonthlyServices, paid every
	// month of the selected term.
	Monthly Money
}

// SelectedServiceIDs are the ids of the selected services, never nil.
func (l CustomerLine) SelectedServiceIDs() []string { return serviceIDs(l.SelectedServices) }

func serviceIDs(services []LineService) []string {
	ids := make([]string, len(services))
	for i, s := range services {
		ids[i] = s.ID
	}
	return ids
}

// CustomerPrices is an offer priced with the customer's choices.
type CustomerPrices struct {
	Lines    []CustomerLine
	Overview CustomerOverview
}

// lineOptions are the terms and services a line offers.
type lineOptions struct {
	terms       []ContractTerm
	defaultTerm ContractTerm
	services    []LineService
}

// options lists a line's terms and services. The default term is the
// recommended rent term when the line can be rented, else paying now.
func (e *Engine) options(currency string, l OfferLine) lineOptions {
	payNow := ContractTerm{ID: LinePayNowTermID(l.ID), Type: ContractPayNow, Amount: l.Price.PayNow}
	o := lineOptions{terms: []ContractTerm{payNow}, defaultTerm: payNow}
	for _, t := range l.Price.Rent {
		o.terms = append(o.terms, ContractTerm{ID: LineRentTermID(l.ID, t.Duration), Type: ContractRent, Duration: t.Duration, Amount: t.Monthly})
	}
	if len(l.Price.Rent) == 0 {
		return o
	}
	recommended, ok := e.Recommended(l.Price.Rent)
	if !ok {
		// Priced before the default term changed: the cheapest per month.
		recommended, _ = Lowest(l.Price.Rent)
	}
	o.defaultTerm = ContractTerm{ID: LineRentTermID(l.ID, recommended.Duration), Type: ContractRent, Duration: recommended.Duration, Amount: recommended.Monthly}
	taxRate := l.Price.Rent[0].Monthly.TaxRate
	if len(l.Price.RentExcludingSublines) > 0 {
		taxRate = l.Price.RentExcludingSublines[0].Monthly.TaxRate
	}
	for _, s := range e.Services(l.Category) {
		o.services = append(o.services, LineService{
			ID:            ServiceID(l.ID, s.Type),
			Type:          s.Type,
			Monthly:       FromNet(currency, s.MonthlyNet, taxRate),
			Deductible:    FromNet(currency, s.DeductibleNet, taxRate),
			AccessoryType: s.AccessoryType,
			Images:        s.Images,
		})
	}
	return o
}

// PriceForCustomer prices an offer with the customer's choices. A choice the
// offer does not allow is refused with a *RefusedSelection naming every
// problem; a discount that cannot apply wraps ErrDiscountNotApplicable; an
// offer not priced by this package (mixed currencies, repeated line ids)
// is an error too.
func (e *Engine) PriceForCustomer(r CustomerRequest) (CustomerPrices, error) {
	if err := r.check(); err != nil {
		return CustomerPrices{}, err
	}
	lines, err := e.choose(r)
	if err != nil {
		return CustomerPrices{}, err
	}
	if err := discountLines(r, lines); err != nil {
		return CustomerPrices{}, err
	}
	for i := range lines {
		l := &lines[i]
		if l.Monthly, err = SumOf(r.Currency, l.MonthlyRent.Minus(l.MonthlyDiscount), l.MonthlyServices); err != nil {
			return CustomerPrices{}, err
		}
	}
	return CustomerPrices{Lines: lines, Overview: overviewOf(r, lines)}, nil
}

// choose applies the selections to the lines, refusing them all when any
// one is wrong.
func (e *Engine) choose(r CustomerRequest) ([]CustomerLine, error) {
	byLine := map[string]Selection{}
	refused := &RefusedSelection{}
	known := map[string]bool{}
	for _, l := range r.Lines {
		known[l.ID] = true
	}
	for _, s := range r.Selections {
		_, twice := byLine[s.LineID]
		switch {
		case !known[s.LineID]:
			refused.Problems = append(refused.Problems, SelectionProblem{s.LineID, "is not a line of this offer"})
		case twice:
			refused.Problems = append(refused.Problems, SelectionProblem{s.LineID, "is chosen more than once"})
		}
		byLine[s.LineID] = s
	}
	lines := make([]CustomerLine, len(r.Lines))
	for i, l := range r.Lines {
		o := e.options(r.Currency, l)
		term, services, problems := o.resolve(byLine[l.ID])
		for _, p := range problems {
			refused.Problems = append(refused.Problems, SelectionProblem{l.ID, p})
		}
		lines[i] = CustomerLine{
			LineID:               l.ID,
			Terms:                o.terms,
			PayNow:               o.terms[0],
			Services:             o.services,
			Selected:             term,
			SelectedServices:     services,
			RequiresSerialNumber: len(l.Price.RentExcludingSublines) > 0,
			Once:                 Money{Currency: r.Currency},
			MonthlyRent:          Money{Currency: r.Currency},
			MonthlyDiscount:      Money{Currency: r.Currency},
			MonthlyServices:      Money{Currency: r.Currency},
		}
		if len(l.Price.Rent) > 0 {
			shown := o.defaultTerm
			if term.Type == ContractRent {
				shown = term
			}
			rent := &RentOption{ContractTerm: shown}
			for _, t := range l.Price.Rent {
				rent.Durations = append(rent.Durations, t.Duration)
			}
			lines[i].Rent = rent
		}
		if err := lines[i].cost(r.Currency, l); err != nil {
			return nil, err
		}
	}
	if len(refused.Problems) > 0 {
		return nil, refused
	}
	return lines, nil
}

// cost fills in what the chosen term and services cost for the line's
// quantity, before any discount.
func (c *CustomerLine) cost(currency string, l OfferLine) error {
	if c.Selected.Type == ContractPayNow {
		c.Once = l.Price.TotalPayNow
		return nil
	}
	for _, t := range l.Price.TotalRent {
		if t.Duration == c.Selected.Duration {
			c.MonthlyRent = t.Monthly
		}
	}
	monthly := make([]Money, len(c.SelectedServices))
	for i, s := range c.SelectedServices {
		monthly[i] = s.Monthly.Times(l.Quantity)
	}
	var err error
	c.MonthlyServices, err = SumOf(currency, monthly...)
	return err
}

// discountLines takes the request's discount off the rented lines.
func discountLines(r CustomerRequest, lines []CustomerLine) error {
	if r.Discount == nil {
		return nil
	}
	var rented []int
	var rents []Money
	for i, l := range lines {
		if l.Selected.Type == ContractRent {
			rented = append(rented, i)
			rents = append(rents, l.MonthlyRent)
		}
	}
	discounts, err := r.Discount.split(r.Currency, rents)
	if err != nil {
		return err
	}
	for j, i := range rented {
		lines[i].DiscountID, lines[i].MonthlyDiscount = r.Discount.ID, discounts[j]
	}
	return nil
}

// check refuses a request no offer priced by this package can make: the
// caller's defect, not the customer's.
func (r CustomerRequest) check() error {
	if r.Currency == "" {
		return errors.New("checkout: the offer has no currency")
	}
	if len(r.Lines) == 0 {
		return errors.New("checkout: the offer has no lines")
	}
	amounts := []Money{r.Shipping}
	seen := map[string]bool{}
	for _, l := range r.Lines {
		if l.ID == "" || seen[l.ID] {
			return fmt.Errorf("checkout: line id %q is empty or repeated", l.ID)
		}
		seen[l.ID] = true
		if l.Quantity < 1 {
			return fmt.Errorf("checkout: line %q has quantity %d", l.ID, l.Quantity)
		}
		p := l.Price
		if len(p.TotalRent) != len(p.Rent) {
			return fmt.Errorf("checkout: line %q has %d rent terms and %d rent totals", l.ID, len(p.Rent), len(p.TotalRent))
		}
		amounts = append(amounts, p.PayNow, p.PayNowExcludingSublines, p.TotalPayNow)
		for _, terms := range [][]Term{p.Rent, p.RentExcludingSublines, p.TotalRent} {
			for _, t := range terms {
				amounts = append(amounts, t.Monthly)
			}
		}
	}
	for _, m := range amounts {
		if m.Net < 0 || m.Gross < 0 || (m.Currency != r.Currency && (m.Currency != "" || m.Net != 0 || m.Gross != 0)) {
			return fmt.Errorf("checkout: the amount %+v is negative or not in %s", m, r.Currency)
		}
	}
	return nil
}
