package offers

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/catalog"
)

// Ecommerce is the sales channel of offers made in a web shop: they need a
// shipping address.
const Ecommerce = "ecommerce"

// Request is an offer as a merchant asks for it (create, partner create,
// validate, and the full replacement of an edit). Optional values are nil
// when not sent.
type Request struct {
	Reference       string
	SalesChannel    string
	ExpiresAt       time.Time
	Customer        *Customer
	ShippingAddress *Address
	Shipping        *Shipping
	SalesAgent      *SalesAgent
	Lines           []LineRequest
	// Metadata is nil when the merchant sent none.
	Metadata        map[string]string
	ExitRedirect    *string
	SuccessRedirect *string
	DraftOfferID    *string
}

// LineRequest is a line (or a subline) a merchant asks for: a catalog
// product, its quantity and the prices that override the catalog's.
type LineRequest struct {
	Title           string
	Subtitle        *string
	Quantity        int64
	Product         catalog.Reference
	Price           PriceRequest
	BaseRentalPrice *PriceRequest
	Sublines        []LineRequest
}

// PriceRequest is a price a merchant sends; without Gross, the product's
// tax rate gives it.
type PriceRequest struct {
	Currency string
	Net      int64
	Gross    *int64
}

// Options say how a request is meant.
type Options struct {
	// Partner marks offers created through POST /v1/offers/partners.
	Partner bool
	// Replaces is the offer an edit supersedes: the new offer may keep its
	// seller_offer_reference.
	Replaces *uuid.UUID
}
