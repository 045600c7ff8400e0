package activities

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

// SandboxFixtures writes the well-known records of a new sandbox seller.
type SandboxFixtures struct {
	Store *db.Store
}

// fixtureShippingMethods are the shipping methods every sandbox seller has.
var fixtureShippingMethods = []dbgen.CreateShippingMethodParams{
	{SellerShippingMethodReference: sandbox.SupportedShippingReference, Name: "Sandbox Shipping Service", Supported: true},
	{SellerShippingMethodReference: sandbox.UnsupportedShippingReference, Name: "Unsupported Shipping Service", Supported: false},
}

// SeedShippingMethods creates the fixture shipping methods; existing ones are
// left as they are. It returns how many fixtures the seller has.
func (f *SandboxFixtures) SeedShippingMethods(ctx context.Context, in sandbox.SeedInput) (int, error) {
	err := f.Store.InTx(ctx, func(q *dbgen.Queries) error {
		for _, m := range fixtureShippingMethods {
			m.ID = uuid.Must(uuid.NewV7())
			m.SellerID = in.SellerID
			if _, err := q.CreateShippingMethod(ctx, m); err != nil && !db.IsNotFound(err) {
				return err
			}
		}
		return nil
	})
	return len(fixtureShippingMethods), err
}
