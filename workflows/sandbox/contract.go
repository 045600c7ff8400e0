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
