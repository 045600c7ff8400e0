package orders

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db/dbgen"
)

// Document is what an order copies from its offer and its seller when it
// is created; the rest of the order (status, assets, metadata, tracking)
// lives in its own columns and rows.
type Document struct {
	CustomerInfo    sellerapi.Customer        `json:"customer_info"`
	SalesAgent      *sellerapi.SalesAgent     `json:"sales_agent,omitempty"`
	ShippingAddress sellerapi.ShippingAddress `json:"shipping_address"`
	ShippingInfo    *sellerapi.OfferShipping  `json:"shipping_info,omitempty"`
	SellerInfo      sellerapi.SellerInfo      `json:"seller_info"`
	OrderLines      []sellerapi.OrderLine     `json:"order_lines"`
}

// NewOrder is an order ready to be stored: its row and one asset per unit
// of every line and subline.
type NewOrder struct {
	Order  dbgen.CreateOrderParams
	Assets []dbgen.CreateOrderAssetsParams
}

// FromOffer builds the order an accepted offer becomes. Each line takes the
// contract the offer line selected, else rent when the line offers it,
// else pay now.
func FromOffer(orderID uuid.UUID, offer dbgen.Offer, doc sellerapi.Offer, seller sellerapi.SellerInfo) (NewOrder, error) {
	d := Document{
		CustomerInfo:    doc.Customer,
		SalesAgent:      doc.SalesAgent,
		ShippingAddress: doc.ShippingAddress,
		ShippingInfo:    doc.Shipping,
		SellerInfo:      seller,
	}
	var assets []dbgen.CreateOrderAssetsParams
	addAssets := func(title string, productID *string, refs []sellerapi.SellerProductReference, quantity int64, rentable bool) error {
		refsJSON, err := json.Marshal(refs)
		if err != nil {
			return err
		}
		var product *uuid.UUID
		if productID != nil {
			id, err := uuid.Parse(*productID)
			if err != nil {
				return fmt.Errorf("offer line %q has product id %q: %w", title, *productID, err)
			}
			product = &id
		}
		for range quantity {
			assets = append(assets, dbgen.CreateOrderAssetsParams{
				ID:                      uuid.Must(uuid.NewV7()),
				OrderID:                 orderID,
				SellerID:                offer.SellerID,
				Position:                int32(len(assets)),
				ProductID:               product,
				Title:                   title,
				SellerProductReferences: refsJSON,
				RequiresSerialNumber:    rentable,
			})
		}
		return nil
	}
	for _, line := range doc.Lines {
		orderLine := asLine(lineOf(line.Title, line.Subtitle, line.PrettyId, line.ProductId, line.Quantity, line.SellerProductReferences,
			line.Price, line.BaseRentalPrice, line.SelectedContractType, line.AvailableContractTerms))
		if err := addAssets(line.Title, line.ProductId, line.SellerProductReferences, line.Quantity, rentable(line.AvailableContractTerms)); err != nil {
			return NewOrder{}, err
		}
		if line.Sublines != nil {
			var sublines []sellerapi.OrderSubline
			for _, sub := range *line.Sublines {
				s := lineOf(sub.Title, sub.Subtitle, sub.PrettyId, sub.ProductId, sub.Quantity, sub.SellerProductReferences,
					sub.Price, sub.BaseRentalPrice, sub.SelectedContractType, sub.AvailableContractTerms)
				sublines = append(sublines, s)
				if err := addAssets(sub.Title, sub.ProductId, sub.SellerProductReferences, sub.Quantity, rentable(sub.AvailableContractTerms)); err != nil {
					return NewOrder{}, err
				}
			}
			orderLine.Sublines = &sublines
		}
		d.OrderLines = append(d.OrderLines, orderLine)
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
	if doc.Customer.Company != nil && doc.Customer.Company.Name != nil {
		companyName = *doc.Customer.Company.Name
	}
	fullName := deref(doc.Customer.FullName)
	return NewOrder{
		Order: dbgen.CreateOrderParams{
			ID:                   orderID,
			SellerID:             offer.SellerID,
			OfferID:              offer.ID,
			SellerOfferReference: offer.SellerOfferReference,
			CreatedBy:            offer.CreatedBy,
			Partner:              offer.Partner,
			SearchText:           strings.ToLower(strings.Join([]string{offer.SellerOfferReference, agentName, companyName, fullName, string(deref(doc.Customer.Email))}, " ")),
			AgentName:            agentName,
			CompanyName:          companyName,
			FullName:             fullName,
			Document:             raw,
			OfferCreatedAt:       offer.CreatedAt,
		},
		Assets: assets,
	}, nil
}

// rentable reports whether a line offers rent; its assets then need a
// serial number when shipped, even if bought outright.
func rentable(terms *sellerapi.OfferLineContractTerms) bool {
	return terms != nil && terms.Rent != nil
}

// lineOf turns an offer line (or subline, which has the same fields) into
// an order subline with its chosen contract; asLine makes a line of it.
func lineOf(title string, subtitle, prettyID, productID *string, quantity int64, refs []sellerapi.SellerProductReference,
	price sellerapi.Money, baseRental *sellerapi.Money, selected *string, terms *sellerapi.OfferLineContractTerms) sellerapi.OrderSubline {
	line := sellerapi.OrderSubline{
		BaseRentalPrice:            baseRental,
		PrettyId:                   prettyID,
		ProductId:                  productID,
		Quantity:                   quantity,
		SelectedFirstPartyServices: []sellerapi.FirstPartyService{},
		SellerProductReferences:    refs,
		Subtitle:                   deref(subtitle),
		Title:                      title,
		UnitPrice:                  &price,
		ContractType:               sellerapi.PayNow,
		MonthlyPrice:               sellerapi.Money{Currency: price.Currency},
	}
	wantsPayNow := selected != nil && *selected == string(sellerapi.PayNow)
	if rentable(terms) && !wantsPayNow {
		line.ContractType = sellerapi.Rent
		line.Duration = sellerapi.ContractMonths(terms.Rent.Duration)
		m := terms.Rent.MonthlyAmount
		line.MonthlyPrice = sellerapi.Money{Currency: m.Currency, Gross: m.Gross, Net: m.Net}
	}
	return line
}

func asLine(s sellerapi.OrderSubline) sellerapi.OrderLine {
	return sellerapi.OrderLine{
		BaseRentalPrice:            s.BaseRentalPrice,
		ContractType:               s.ContractType,
		Duration:                   s.Duration,
		MonthlyPrice:               s.MonthlyPrice,
		PrettyId:                   s.PrettyId,
		ProductId:                  s.ProductId,
		Quantity:                   s.Quantity,
		SelectedFirstPartyServices: s.SelectedFirstPartyServices,
		SellerProductReferences:    s.SellerProductReferences,
		Subtitle:                   s.Subtitle,
		Title:                      s.Title,
		UnitPrice:                  s.UnitPrice,
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
