// Package sandbox is the workflow that gives every new sandbox seller the
// well-known fixtures merchants test their integrations against.
package sandbox

import (
	"github.com/google/uuid"
)

// TaskQueue is the queue sandbox fixture workflows and activities run on.
const TaskQueue = "sandbox"

// WorkflowID names the fixture workflow of one seller, so seeding a seller
// twice finds the first run instead of seeding again.
func WorkflowID(sellerID uuid.UUID) string { return "sandbox-fixtures/" + sellerID.String() }

// SeedInput says which seller to seed.
type SeedInput struct {
	SellerID uuid.UUID
}

// SeedResult counts what the seeding created or found in place.
type SeedResult struct {
	ShippingMethods int
	Products        int
	// OffersAndOrders counts the offer and order fixtures.
	OffersAndOrders int
}

// Activity names, registered by the worker with these exact names.
const (
	// SeedShippingMethodsActivity creates the fixture shipping methods.
	SeedShippingMethodsActivity = "sandbox.SeedShippingMethods"
	// SeedCatalogActivity imports the fixture products.
	SeedCatalogActivity = "sandbox.SeedCatalog"
	// SeedOffersActivity drives the fixture offers and orders through their
	// workflows to their statuses.
	SeedOffersActivity = "sandbox.SeedOffers"
)

// Fixture offers by seller_offer_reference. ActiveOfferReference is the
// active offer whose reference new offers may not reuse; the others are in
// the status their name says. The order fixtures are the orders of offers
// named OrderReferencePrefix + the order status (ref-order-confirmed).
const (
	ActiveOfferReference   = "ref-1234"
	CreatedOfferReference  = "ref-created"
	VoidedOfferReference   = "ref-voided"
	ExpiredOfferReference  = "ref-expired"
	AcceptedOfferReference = "ref-accepted"
	OrderReferencePrefix   = "ref-order-"
)

// Fixture products of the sandbox catalog, by (source, reference).
const (
	// SAPSource is the source of the SAP fixture references.
	SAPSource = "SAP"
	// PayNowOnlyReference (SAP) is a supported product too cheap to rent:
	// it can only be paid now.
	PayNowOnlyReference = "1234-5678"
	// RentReference (SAP) is a supported product with rent terms, also
	// named by (RentAltSource, RentAltReference).
	RentReference = "1111-1111"
	// RentAltSource is the source of the second pair of the rent product.
	RentAltSource = "B6"
	// RentAltReference is the second reference of the rent product.
	RentAltReference = "2222-2222"
	// UnsupportedReference (SAP) is an unsupported product.
	UnsupportedReference = "8765-4321"
	// SKUSource is the source of the sku fixture references.
	SKUSource = "sku"
	// SupportedSKUReference (sku) is a supported product with rent terms.
	SupportedSKUReference = "123abc"
	// UnsupportedSKUReference (sku) is an unsupported product.
	UnsupportedSKUReference = "unsupported-1"
)

// Fixture references of the sandbox shipping methods.
const (
	// SupportedShippingReference is a shipping method offers may use.
	SupportedShippingReference = "sandbox-shipping-service"
	// UnsupportedShippingReference is a shipping method offers are refused with.
	UnsupportedShippingReference = "unsupported-shipping-reference"
)
