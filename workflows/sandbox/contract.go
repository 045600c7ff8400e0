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
}

// Activity names, registered by the worker with these exact names.
const (
	// SeedShippingMethodsActivity creates the fixture shipping methods.
	SeedShippingMethodsActivity = "sandbox.SeedShippingMethods"
)

// Fixture references of the sandbox shipping methods.
const (
	// SupportedShippingReference is a shipping method offers may use.
	SupportedShippingReference = "sandbox-shipping-service"
	// UnsupportedShippingReference is a shipping method offers are refused with.
	UnsupportedShippingReference = "unsupported-shipping-reference"
)
