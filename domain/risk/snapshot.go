package risk

// SnapshotVersion is the version of the snapshots Tenure writes into the
// decision log.
//
//   - 1: the first snapshot: offer, customer, seller, exposure.
//
// A later version adds variables; older snapshots replay with the zero
// value of what they lack (backtests say so when they read one).
const SnapshotVersion = 1

// Snapshot is everything a rule set sees of one decision, and the only
// thing it sees: evaluating the same snapshot with the same rule set
// always decides the same. Its fields are the CEL variables (offer,
// customer, seller, exposure) under their JSON names, which are also the
// keys of the snapshot stored in the decision log. Money is integer cents
// in the offer's currency.
type Snapshot struct {
	Version  int      `json:"version"`
	Offer    Offer    `json:"offer"`
	Customer Customer `json:"customer"`
	Seller   Seller   `json:"seller"`
	Exposure Exposure `json:"exposure"`
}

// Offer is the CEL variable `offer`: the basket under review.
type Offer struct {
	// ID is the offer's id.
	ID string `json:"id"`
	// TotalNet and TotalGross are the purchase price of the whole basket
	// (every line with its sublines, for its quantity; shipping not
	// included): the amount renting replaces.
	TotalNet   int64 `json:"total_net"`
	TotalGross int64 `json:"total_gross"`
	// Currency is the ISO 4217 code of every amount of the snapshot.
	Currency string `json:"currency"`
	// SalesChannel is how the seller sold it (ecommerce, telesales, pos,
	// ...), as the seller's offer says.
	SalesChannel string `json:"sales_channel"`
	// ShippingCountry is the upper-case ISO 3166-1 alpha-2 code of the
	// shipping address; "" when the offer has none.
	ShippingCountry string `json:"shipping_country"`
	// Categories are the product categories of every line and subline: the
	// pricing categories and the seller's own category names, each once.
	Categories []string `json:"categories"`
	// Lines are the offer's lines in its order.
	Lines []Line `json:"lines"`
}

// Line is one element of `offer.lines`.
type Line struct {
	// ProductType is the catalog's product type of the line's product
	// (hardware, software, service, hardware_built_to_order); "" when the
	// seller gave none.
	ProductType string `json:"product_type"`
	// PricingCategory is the category whose rates price the product.
	PricingCategory string `json:"pricing_category"`
	// Categories are the seller's own category names of the product.
	Categories []string `json:"categories"`
	// Quantity is the number of units.
	Quantity int64 `json:"quantity"`
	// Net and Gross are the purchase price of the line with its sublines,
	// for its quantity.
	Net   int64 `json:"net"`
	Gross int64 `json:"gross"`
	// ContractType is what the customer chose for the line: rent or
	// pay_now; "" when they did not choose.
	ContractType string `json:"contract_type"`
	// Duration is the chosen rent term in months; 0 when not renting.
	Duration int64 `json:"duration"`
}

// Customer is the CEL variable `customer`: the end customer's company, as
// the seller and then the customer at checkout gave it. Absent values are
// "".
type Customer struct {
	// Name is the company's name.
	Name string `json:"name"`
	// Country is the upper-case ISO 3166-1 alpha-2 code of the billing
	// address.
	Country string `json:"country"`
	// HasBillingAddress says whether the company has a billing address.
	HasBillingAddress bool `json:"has_billing_address"`
	// LegalForm is the legal form the customer gave at checkout (de_gmbh,
	// nl_bv, ...; see the Customer-Facing API's list).
	LegalForm string `json:"legal_form"`
	// VATNumber, TaxNumber and RegistrationNumber are as given.
	VATNumber          string `json:"vat_number"`
	TaxNumber          string `json:"tax_number"`
	RegistrationNumber string `json:"registration_number"`
	// CompanyAgeMonths is the company's age in whole months where known,
	// -1 where not: no source of the founding date is connected yet.
	CompanyAgeMonths int64 `json:"company_age_months"`
}

// Seller is the CEL variable `seller`: who sells the offer.
type Seller struct {
	// ID is the seller's id.
	ID string `json:"id"`
	// Name is the seller's name.
	Name string `json:"name"`
	// Limits are the amounts (cents, or counts) an operator set for this
	// seller by name (`tenure risk limits`); a rule reads them as
	// seller.limits.max_offer_net, after checking
	// "max_offer_net" in seller.limits.
	Limits map[string]int64 `json:"limits"`
}

// Exposure is the CEL variable `exposure`: what the same company already
// owes or has asked for, across every seller of the deployment, before
// this offer, in the offer's currency.
type Exposure struct {
	// OpenNet is the net amount of the company's offers under review or
	// accepted (whose order was not canceled or rejected): each offer's
	// reservation until its contracts have schedules, then their
	// installments still owed.
	OpenNet int64 `json:"open_net"`
	// Offers is how many offers OpenNet counts.
	Offers int64 `json:"offers"`
}
