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
}

// Activity names, registered by the worker with these exact names.
const (
	// SeedShippingMethodsActivity creates the fixture shipping methods.
	SeedShippingMethodsActivity = "sandbox.SeedShippingMethods"
	// SeedCatalogActivity imports the fixture products.
	SeedCatalogActivity = "sandbox.SeedCatalog"
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
