package activities

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/fixtures"
)

// SandboxFixtures writes the well-known records of a new sandbox seller.
type SandboxFixtures struct {
	Store    *db.Store
	Importer catalog.Importer
	Driver   FixtureDriver
}

// SeedInput names the seller to seed.
type SeedInput struct {
	SellerID uuid.UUID
}

// SeedShippingMethods creates the fixture shipping methods; existing ones are
// left as they are. It returns how many fixtures the seller has.
func (f *SandboxFixtures) SeedShippingMethods(ctx context.Context, in SeedInput) (int, error) {
	err := f.Store.InTx(ctx, func(q *dbgen.Queries) error {
		for _, m := range fixtures.ShippingMethods {
			m.ID = uuid.Must(uuid.NewV7())
			m.SellerID = in.SellerID
			if _, err := q.CreateShippingMethod(ctx, m); err != nil && !db.IsNotFound(err) {
				return err
			}
		}
		return nil
	})
	return len(fixtures.ShippingMethods), err
}

// SeedCatalog imports the fixture products and pins the unsupported ones;
// running it again leaves the same products. It returns how many fixture
// products the seller has.
func (f *SandboxFixtures) SeedCatalog(ctx context.Context, in SeedInput) (int, error) {
	seller, err := f.Store.GetSeller(ctx, in.SellerID)
	if err != nil {
		return 0, err
	}
	products := fixtures.Products(seller.Currency)
	inputs := make([]catalog.ProductInput, len(products))
	var unsupported []catalog.Reference
	for i, p := range products {
		inputs[i] = p.ProductInput
		if p.Unsupported {
			unsupported = append(unsupported, p.References[0])
		}
	}
	valid, rejections := catalog.ValidateBatch(inputs, seller.Currency)
	if len(rejections) > 0 {
		return 0, fmt.Errorf("a sandbox fixture product is invalid: %+v", rejections[0])
	}
	err = f.Store.InTx(ctx, func(q *dbgen.Queries) error {
		if _, refused, err := f.Importer.Upsert(ctx, q, in.SellerID, valid); err != nil || len(refused) > 0 {
			return fmt.Errorf("importing the sandbox fixture products (refused %+v): %w", refused, err)
		}
		found, err := catalog.FindByReferences(ctx, q, in.SellerID, unsupported)
		if err != nil {
			return err
		}
		ids := make([]uuid.UUID, 0, len(found))
		for _, p := range found {
			ids = append(ids, p.ID)
		}
		_, err = q.MarkProductsUnsupported(ctx, dbgen.MarkProductsUnsupportedParams{SellerID: in.SellerID, Ids: ids, Reason: fixtures.UnsupportedReason})
		return err
	})
	return len(products), err
}

// SeedOffers drives the fixture offers and orders to their statuses through
// their workflows, heartbeating as each is done. It returns how many
// fixtures the seller has.
func (f *SandboxFixtures) SeedOffers(ctx context.Context, in SeedInput) (int, error) {
	return f.Driver.SeedOffers(ctx, in.SellerID, func(count int) { activity.RecordHeartbeat(ctx, count) })
}
