package orders

import (
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
)

// DocumentVersion is the version of the order documents Tenure writes.
//
//   - 0: documents written before Tenure had its own: the parts of the
//     Seller API's order copied from the offer and the seller, with the
//     seller's capability flags (all false). They decode as version 1,
//     whose keys are theirs.
//   - 1: the order's own document.
//   - 2: adds what the customer chose at checkout (services and the
//     discount per line, the discount); version 1 documents have none.
const DocumentVersion = 2

// Contract types of an order line.
const (
	// PayNow buys the line's units outright.
	PayNow = "pay_now"
	// Rent rents them for the line's duration.
	Rent = "rent"
)

// Document is what an order copies from its offer and its seller when it
// is created; the rest (status, assets, metadata, tracking) lives in its
// own columns and rows.
type Document struct {
	Version         int                `json:"version,omitempty"`
	Customer        offers.Customer    `json:"customer_info"`
	SalesAgent      *offers.SalesAgent `json:"sales_agent,omitempty"`
	ShippingAddress *offers.Address    `json:"shipping_address,omitempty"`
	Shipping        *offers.Shipping   `json:"shipping_info,omitempty"`
	Seller          Seller             `json:"seller_info"`
	Lines           []Line             `json:"order_lines"`
	// Discount is the discount code the customer applied, if any.
	Discount *offers.AppliedDiscount `json:"discount,omitempty"`
}

// Seller is what an order says about its seller.
type Seller struct {
	ID                     uuid.UUID      `json:"id"`
	Name                   string         `json:"name"`
	Email                  string         `json:"email"`
	Currency               string         `json:"currency"`
	Address                offers.Address `json:"address"`
	ProductReferenceSource string         `json:"product_reference_source"`
}

// Line is an ordered line (or subline) with the contract it is had on.
type Line struct {
	Title           string              `json:"title"`
	Subtitle        string              `json:"subtitle"`
	Quantity        int64               `json:"quantity"`
	ProductID       *uuid.UUID          `json:"product_id,omitempty"`
	PrettyID        *string             `json:"pretty_id,omitempty"`
	References      []catalog.Reference `json:"seller_product_references"`
	UnitPrice       *pricing.Money      `json:"unit_price,omitempty"`
	BaseRentalPrice *pricing.Money      `json:"base_rental_price,omitempty"`
	// ContractType is PayNow or Rent; a rented line runs Duration months
	// at MonthlyPrice.
	ContractType string        `json:"contract_type"`
	Duration     int           `json:"duration"`
	MonthlyPrice pricing.Money `json:"monthly_price"`
	// Services are the first-party services chosen with the line, priced
	// per unit and month; MonthlyDiscount is the line's share of the
	// discount for its quantity.
	Services        []offers.AgreedService `json:"services,omitempty"`
	MonthlyDiscount *pricing.Money         `json:"monthly_discount,omitempty"`
	Sublines        []Line                 `json:"sublines,omitempty"`
}
