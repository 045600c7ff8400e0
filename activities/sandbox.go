package activities

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/catalog"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/orders"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

// SandboxFixtures writes the well-known records of a new sandbox seller.
type SandboxFixtures struct {
	Store    *db.Store
	Importer catalog.Importer
	Offers   *offers.Service
	Orders   *orders.Service
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

// fixtureProduct is a sandbox catalog product; prices are in the seller's
// currency (19 % tax).
type fixtureProduct struct {
	catalog.ProductInput
	unsupported bool
}

func fixtureProducts(currency string) []fixtureProduct {
	price := func(net, gross int64) catalog.Money {
		rate := int64(1900)
		return catalog.Money{Currency: currency, Net: net, Gross: gross, TaxRate: &rate}
	}
	ids := func(ean, mpn string) []catalog.Identifier {
		return []catalog.Identifier{{Type: "EAN", ID: ean}, {Type: "MPN", ID: mpn}}
	}
	return []fixtureProduct{{ProductInput: catalog.ProductInput{
		// Below pricing.min_rent_basis (100.00 by default): pay now only.
		Title: "Logitech MX Master 3S", Subtitle: "Wireless performance mouse, graphite", Manufacturer: "Logitech",
		Type: "hardware", IsActive: true, Price: price(8395, 9990),
		References:  []catalog.Reference{{Source: sandbox.SAPSource, Reference: sandbox.PayNowOnlyReference}},
		Identifiers: ids("5099206103719", "910-006559"),
		Categories:  []catalog.Category{{ID: "accessories", Name: "Accessories"}},
	}}, {ProductInput: catalog.ProductInput{
		Title: `Apple MacBook Pro 14" M3 Pro`, Subtitle: "18 GB RAM, 512 GB SSD, space black", Manufacturer: "Apple",
		Type: "hardware", IsActive: true, Price: price(209916, 249800),
		References: []catalog.Reference{
			{Source: sandbox.SAPSource, Reference: sandbox.RentReference},
			{Source: sandbox.RentAltSource, Reference: sandbox.RentAltReference},
		},
		Identifiers: ids("0195253123450", "MRX33D/A"),
		Categories:  []catalog.Category{{ID: "notebooks", Name: "Notebooks"}},
		Details:     []catalog.Detail{{Property: "memory", Value: "18 GB"}, {Property: "storage", Value: "512 GB SSD"}},
	}}, {ProductInput: catalog.ProductInput{
		Title: "Canon imageRUNNER ADVANCE DX C3826i", Subtitle: "A3 colour multifunction printer", Manufacturer: "Canon",
		Type: "hardware", IsActive: true, Price: price(420000, 499800),
		References:  []catalog.Reference{{Source: sandbox.SAPSource, Reference: sandbox.UnsupportedReference}},
		Identifiers: ids("4549158123453", "4909C005"),
		Categories:  []catalog.Category{{ID: "printers", Name: "Printers"}},
	}, unsupported: true}, {ProductInput: catalog.ProductInput{
		Title: "Dell UltraSharp U2724D", Subtitle: `27" QHD monitor with USB-C hub`, Manufacturer: "Dell",
		Type: "hardware", IsActive: true, Price: price(54538, 64900),
		References:  []catalog.Reference{{Source: sandbox.SKUSource, Reference: sandbox.SupportedSKUReference}},
		Identifiers: ids("5397184801239", "DELL-U2724D"),
		Categories:  []catalog.Category{{ID: "monitors", Name: "Monitors"}},
	}}, {ProductInput: catalog.ProductInput{
		Title: "Samsung Galaxy Tab S9 FE", Subtitle: `10.9" tablet, 128 GB, Wi-Fi`, Manufacturer: "Samsung",
		Type: "hardware", IsActive: true, Price: price(37807, 44990),
		References:  []catalog.Reference{{Source: sandbox.SKUSource, Reference: sandbox.UnsupportedSKUReference}},
		Identifiers: ids("8806095123455", "SM-X510NZAAEUB"),
		Categories:  []catalog.Category{{ID: "tablets", Name: "Tablets"}},
	}, unsupported: true}}
}

// unsupportedFixtureReason explains the unsupported fixture products.
const unsupportedFixtureReason = "sandbox fixture: an unsupported product"

// SeedCatalog imports the fixture products and pins the unsupported ones;
// running it again leaves the same products. It returns how many fixture
// products the seller has.
func (f *SandboxFixtures) SeedCatalog(ctx context.Context, in sandbox.SeedInput) (int, error) {
	seller, err := f.Store.GetSeller(ctx, in.SellerID)
	if err != nil {
		return 0, err
	}
	fixtures := fixtureProducts(seller.Currency)
	inputs := make([]catalog.ProductInput, len(fixtures))
	var unsupported []catalog.Reference
	for i, p := range fixtures {
		inputs[i] = p.ProductInput
		if p.unsupported {
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
		_, err = q.MarkProductsUnsupported(ctx, dbgen.MarkProductsUnsupportedParams{SellerID: in.SellerID, Ids: ids, Reason: unsupportedFixtureReason})
		return err
	})
	return len(fixtures), err
}
