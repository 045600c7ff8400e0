package testenv

import (
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
)

// Workstation is the hardware product the test stacks' sellers offer:
// 2,500.00 EUR net, sku "workstation".
func Workstation() catalog.ProductInput {
	return catalog.ProductInput{
		Title: "Workstation", Type: "hardware", IsActive: true,
		Price:      catalog.Money{Currency: "EUR", Net: 250000, Gross: 297500},
		References: []catalog.Reference{{Source: "sku", Reference: "workstation"}},
	}
}

// Catalog imports products into the catalog of a seller whose currency is
// currency, as its CSV import would, and fails the test unless every one
// is imported.
func Catalog(t testing.TB, store *db.Store, cfg *config.Config, sellerID uuid.UUID, currency string, products ...catalog.ProductInput) {
	t.Helper()
	valid, rejections := catalog.ValidateBatch(products, currency)
	if len(rejections) > 0 {
		t.Fatal(rejections)
	}
	err := store.InTx(t.Context(), func(q *dbgen.Queries) error {
		_, refused, err := catalog.Importer{Policy: catalog.NewPolicy(cfg)}.Upsert(t.Context(), q, sellerID, valid)
		if err == nil && len(refused) > 0 {
			// An error, not t.Fatal: the transaction rolls back first.
			err = fmt.Errorf("refused %+v", refused)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Seller is a new seller logged in to the API, with one product.
type Seller struct {
	ID     uuid.UUID
	Client *sellerclient.Client
	// Product is the catalog's product, as offers name it.
	Product sellerclient.Product
}

// NewSeller creates a seller named name, in the currency of product, with
// product as its catalog, and logs it in to the API at apiURL.
func NewSeller(t testing.TB, store *db.Store, cfg *config.Config, apiURL, name string, product catalog.ProductInput) Seller {
	t.Helper()
	currency := product.Price.Currency
	seller, err := auth.CreateSeller(t.Context(), store, name, currency)
	if err != nil {
		t.Fatal(err)
	}
	Catalog(t, store, cfg, seller.Seller.ID, currency, product)
	c, err := sellerclient.Login(t.Context(), apiURL, seller.Credentials.ClientID, seller.Credentials.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	ref := product.References[0]
	return Seller{ID: seller.Seller.ID, Client: c,
		Product: sellerclient.Product{Source: ref.Source, Reference: ref.Reference, Net: product.Price.Net, Currency: currency}}
}
