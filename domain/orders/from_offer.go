package orders

import (
	"encoding/json"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
)

// NewOrder is an order ready to be stored: its row and one asset per unit
// of every line and subline.
type NewOrder struct {
	Order  dbgen.CreateOrderParams
	Assets []dbgen.CreateOrderAssetsParams
}

// FromOffer builds the order an accepted offer becomes. Each line takes the
// contract its customer agreed to at checkout (with the services and the
// discount); an offer accepted without a checkout (the sandbox's
// simulations) takes the contract the offer line selected, else rent when
// the line offers it, else pay now.
func FromOffer(orderID uuid.UUID, offer offers.Stored, seller Seller) (NewOrder, error) {
	row, doc := offer.Row, offer.Document
	d := Document{
		Version:         DocumentVersion,
		Customer:        doc.Customer,
		SalesAgent:      doc.SalesAgent,
		ShippingAddress: doc.ShippingAddress,
		Shipping:        doc.Shipping,
		Seller:          seller,
	}
	agreement := doc.Agreement()
	if agreement != nil {
		d.Discount = agreement.Discount
	}
	var assets []dbgen.CreateOrderAssetsParams
	addAssets := func(l offers.Line) error {
		refs, err := json.Marshal(l.References)
		if err != nil {
			return err
		}
		for range l.Quantity {
			assets = append(assets, dbgen.CreateOrderAssetsParams{
				ID:                      uuid.Must(uuid.NewV7()),
				OrderID:                 orderID,
				SellerID:                row.SellerID,
				Position:                int32(len(assets)),
				ProductID:               l.ProductID,
				Title:                   l.Title,
				SellerProductReferences: refs,
				RequiresSerialNumber:    rentable(l.Terms),
			})
		}
		return nil
	}
	for _, l := range doc.Lines {
		line := lineOf(l)
		agreed := agreedLine(agreement, l.ID)
		if agreed != nil {
			line.agree(*agreed)
		}
		if err := addAssets(l); err != nil {
			return NewOrder{}, err
		}
		for _, sub := range l.Sublines {
			subline := lineOf(sub)
			if agreed != nil {
				// The line's price holds its sublines'.
				subline.ContractType, subline.Duration = line.ContractType, line.Duration
				subline.MonthlyPrice = pricing.Money{Currency: subline.MonthlyPrice.Currency}
			}
			line.Sublines = append(line.Sublines, subline)
			if err := addAssets(sub); err != nil {
				return NewOrder{}, err
			}
		}
		d.Lines = append(d.Lines, line)
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return NewOrder{}, err
	}
	agentName := ""
	if doc.SalesAgent != nil {
		agentName = doc.SalesAgent.Name
	}
	companyName := ""
	if doc.Customer.Company != nil {
		companyName = optional.Value(doc.Customer.Company.Name)
	}
	fullName := optional.Value(doc.Customer.FullName)
	return NewOrder{
		Order: dbgen.CreateOrderParams{
			ID:                   orderID,
			SellerID:             row.SellerID,
			OfferID:              row.ID,
			SellerOfferReference: row.SellerOfferReference,
			CreatedBy:            row.CreatedBy,
			Partner:              row.Partner,
			SearchText:           strings.ToLower(strings.Join([]string{row.SellerOfferReference, agentName, companyName, fullName, optional.Value(doc.Customer.Email)}, " ")),
			AgentName:            agentName,
			CompanyName:          companyName,
			FullName:             fullName,
			Document:             raw,
			OfferCreatedAt:       row.CreatedAt,
		},
		Assets: assets,
	}, nil
}

// rentable reports whether a line offers rent; its assets then need a
// serial number when shipped, even if bought outright.
func rentable(terms *offers.Terms) bool {
	return terms != nil && terms.Rent != nil
}

// lineOf is the order line of an offer line (or subline) with its chosen
// contract; sublines are left to the caller.
func lineOf(l offers.Line) Line {
	price := l.Price
	line := Line{
		Title:           l.Title,
		Subtitle:        optional.Value(l.Subtitle),
		Quantity:        l.Quantity,
		ProductID:       l.ProductID,
		PrettyID:        l.PrettyID,
		References:      l.References,
		UnitPrice:       &price,
		BaseRentalPrice: l.BaseRentalPrice,
		ContractType:    PayNow,
		MonthlyPrice:    pricing.Money{Currency: price.Currency},
	}
	wantsPayNow := optional.Value(l.SelectedContractType) == PayNow
	if rentable(l.Terms) && !wantsPayNow {
		line.ContractType = Rent
		line.Duration = l.Terms.Rent.Duration
		m := l.Terms.Rent.Monthly
		line.MonthlyPrice = pricing.Money{Currency: m.Currency, Gross: m.Gross, Net: m.Net}
	}
	return line
}

// agreedLine is what the customer agreed to for a line, nil without a
// checkout.
func agreedLine(a *offers.Agreement, lineID string) *offers.AgreedLine {
	if a == nil {
		return nil
	}
	for i := range a.Lines {
		if a.Lines[i].LineID == lineID {
			return &a.Lines[i]
		}
	}
	return nil
}

// agree gives the line the contract the customer agreed to: its type and
// duration, the monthly rent of one unit with its sublines, the services
// and the line's share of the discount.
func (l *Line) agree(a offers.AgreedLine) {
	l.ContractType, l.Duration = a.ContractType, a.Duration
	l.MonthlyPrice = pricing.Money{Currency: a.UnitAmount.Currency}
	if a.ContractType == Rent {
		l.MonthlyPrice.Net, l.MonthlyPrice.Gross = a.UnitAmount.Net, a.UnitAmount.Gross
	}
	l.Services = a.Services
	if a.MonthlyDiscount.Net != 0 || a.MonthlyDiscount.Gross != 0 {
		l.MonthlyDiscount = &a.MonthlyDiscount
	}
}
