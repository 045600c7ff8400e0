package sellers

import (
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// ShippingMethod is one of a seller's ways of shipping an offer's goods;
// offers name it by its reference.
type ShippingMethod struct {
	ID            uuid.UUID
	Reference     string
	Name          string
	InStorePickup bool
	// Supported is false once Tenure no longer accepts the method in
	// offers.
	Supported bool
}

// ShippingMethodOf is a stored shipping method.
func ShippingMethodOf(r dbgen.ShippingMethod) ShippingMethod {
	return ShippingMethod{
		ID: r.ID, Reference: r.SellerShippingMethodReference, Name: r.Name, InStorePickup: r.IsInStorePickup, Supported: r.Supported,
	}
}
