package offers

import (
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
)

// DocumentVersion is the version of the offer documents Tenure writes.
//
//   - 0: documents written before Tenure had its own: the Seller API's
//     offer as it was first rendered, the row's fields (id, status,
//     created_at, expires_at) included. They decode as version 1, whose
//     keys are theirs; the row's fields are ignored, the row has them.
//   - 1: the offer's own document.
//   - 2: adds the end customer's checkout (choices, data, agreement);
//     version 1 documents have none and decode unchanged.
//   - 3: adds the risk rules' decision (risk_review); older documents
//     have none and decode unchanged.
//
// A later version that changes the meaning of a key upcasts older ones in
// Document.UnmarshalJSON.
const DocumentVersion = 3

// Document is what an offer says, priced when it was made: its customer,
// shipping, lines with their contract terms, pricing and links. What its
// workflow decides (status, superseded_by_id) and what lists filter on
// (reference, channel, expiry) are the row's.
type Document struct {
	Version int `json:"version,omitempty"`
	// CheckoutURL and SellerURL carry the offer's shared token.
	CheckoutURL     string      `json:"checkout_redirect_url"`
	SellerURL       string      `json:"seller_offer_redirect_url"`
	Customer        Customer    `json:"customer"`
	ShippingAddress *Address    `json:"shipping_address,omitempty"`
	Shipping        *Shipping   `json:"shipping,omitempty"`
	SalesAgent      *SalesAgent `json:"sales_agent,omitempty"`
	Lines           []Line      `json:"lines"`
	// Metadata is nil when the merchant sent none, empty when it sent {}.
	Metadata map[string]string `json:"metadata"`
	Pricing  *Pricing          `json:"pricing_overview,omitempty"`
	// Checkout is what the end customer did at checkout; nil until then.
	Checkout *CustomerSide `json:"checkout,omitempty"`
	// RiskReview is the production risk rules' decision, stored with it;
	// nil until they decided (and in the sandbox).
	RiskReview *RiskReview `json:"risk_review,omitempty"`
}

// Customer is the company an offer is made for and the person who checks
// out. Absent values stay absent (nil), as the merchant sent them.
type Customer struct {
	Company  *Company `json:"company,omitempty"`
	Group    *string  `json:"customer_group,omitempty"`
	Email    *string  `json:"email,omitempty"`
	FullName *string  `json:"full_name,omitempty"`
	Phone    *string  `json:"phone_number,omitempty"`
}

// Company is the customer's company.
type Company struct {
	BillingAddress *Address `json:"billing_address,omitempty"`
	Name           *string  `json:"name,omitempty"`
	TaxNumber      *string  `json:"tax_number,omitempty"`
	VATNumber      *string  `json:"vat_number,omitempty"`
}

// Address is a postal address; a shipping address may name its recipient.
type Address struct {
	City        string  `json:"city"`
	CountryCode string  `json:"country_code"`
	Line1       string  `json:"line1"`
	Line2       *string `json:"line2,omitempty"`
	PostalCode  string  `json:"postal_code"`
	Recipient   *string `json:"recipient_name,omitempty"`
	Region      *string `json:"region,omitempty"`
}

// SalesAgent is the seller's employee or partner responsible for an offer.
type SalesAgent struct {
	Email      string  `json:"email"`
	ExternalID *string `json:"external_agent_id,omitempty"`
	Name       string  `json:"name"`
	Phone      string  `json:"phone"`
}

// Shipping is how an offer is delivered (one of the seller's shipping
// methods) and what delivery costs.
type Shipping struct {
	InStorePickup *bool         `json:"is_in_store_pickup,omitempty"`
	Price         pricing.Money `json:"price"`
	Reference     string        `json:"seller_shipping_reference"`
}

// Line is a priced line of an offer (or a subline of one): one unit's
// prices and contract terms, and the quantity.
type Line struct {
	ID              string              `json:"id"`
	Title           string              `json:"title"`
	Subtitle        *string             `json:"subtitle,omitempty"`
	Quantity        int64               `json:"quantity"`
	ProductID       *uuid.UUID          `json:"product_id,omitempty"`
	PrettyID        *string             `json:"pretty_id,omitempty"`
	Origin          string              `json:"origin"`
	PricingCategory string              `json:"pricing_category"`
	References      []catalog.Reference `json:"seller_product_references"`
	Price           pricing.Money       `json:"price"`
	BaseRentalPrice *pricing.Money      `json:"base_rental_price,omitempty"`
	Terms           *Terms              `json:"available_contract_terms,omitempty"`
	// SelectedContractType is the contract the customer chose for the line
	// (pay_now or rent), when they chose.
	SelectedContractType *string `json:"selected_contract_type,omitempty"`
	Sublines             []Line  `json:"sublines,omitempty"`
}

// Terms are the contracts one unit of a line can be had on.
type Terms struct {
	PayNow *PayNowTerm `json:"pay_now,omitempty"`
	Rent   *RentTerm   `json:"rent,omitempty"`
}

// PayNowTerm is buying a unit outright.
type PayNowTerm struct {
	Amount pricing.Money `json:"amount"`
	ID     string        `json:"id,omitempty"`
}

// RentTerm is renting a unit for Duration months at a monthly amount.
type RentTerm struct {
	Duration int           `json:"duration"`
	ID       string        `json:"id,omitempty"`
	Monthly  pricing.Money `json:"monthly_amount"`
}

// Pricing is what the customer pays for an offer.
type Pricing struct {
	Breakdown []BreakdownLine `json:"breakdown"`
	// InsteadOf is the price of buying everything, which renting replaces.
	InsteadOf pricing.Money  `json:"instead_of_amount"`
	Items     []ItemSummary  `json:"items_summaries,omitempty"`
	Shipping  *pricing.Money `json:"shipping_amount,omitempty"`
	Total     pricing.Money  `json:"total_amount"`
}

// BreakdownLine is one titled amount of a pricing breakdown.
type BreakdownLine struct {
	Amount pricing.Money `json:"amount"`
	Title  string        `json:"title"`
}

// ItemSummary is what one line costs on each term, with and without its
// sublines, per unit and for the quantity.
type ItemSummary struct {
	LineID                  string       `json:"identifier"`
	PayNow                  PayNowAmount `json:"pay_now"`
	PayNowExcludingSublines PayNowAmount `json:"pay_now_excluding_sublines"`
	Rent                    []RentTerm   `json:"rent"`
	RentExcludingSublines   []RentTerm   `json:"rent_excluding_sublines"`
	TotalPayNow             PayNowAmount `json:"total_pay_now"`
	TotalRent               []RentTerm   `json:"total_rent"`
}

// PayNowAmount is a pay-now price as an item summary holds it.
type PayNowAmount struct {
	Amount pricing.Money `json:"pay_now_amount"`
}
