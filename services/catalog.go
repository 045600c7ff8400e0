package services

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/workflows/productimport"
)

// Catalog reads a seller's products and imports batches of them: a small
// batch during the request, a large one through the product-import
// workflow.
type Catalog struct {
	Store    *db.Store
	Temporal client.Client
	Imports  catalog.Imports
}

// Import imports a batch of products; per-product problems reject that
// product only and are listed in the result. A request resuming one whose
// process died answers the import its first attempt recorded.
func (c *Catalog) Import(ctx context.Context, sellerID uuid.UUID, products []catalog.ProductInput) (catalog.ImportResult, error) {
	if idempotency.Resumed(ctx) {
		// The request's first attempt may have recorded the import.
		result, err := c.Imports.Get(ctx, sellerID, idempotency.NewID(ctx))
		if !errors.Is(err, catalog.ErrImportNotFound) {
			return result, err
		}
	}
	if len(products) < catalog.SyncBelow {
		return c.Imports.ImportNow(ctx, sellerID, products)
	}
	return c.Imports.Accept(ctx, sellerID, products, c.startImport)
}

// startImport starts the workflow of a recorded import.
func (c *Catalog) startImport(ctx context.Context, id uuid.UUID) error {
	_, err := c.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        productimport.WorkflowID(id),
		TaskQueue: productimport.TaskQueue,
	}, productimport.ImportProducts, productimport.Input{ImportID: id})
	return err
}

// GetImport returns the current or final result of an import; an unknown
// one is catalog.ErrImportNotFound.
func (c *Catalog) GetImport(ctx context.Context, sellerID, id uuid.UUID) (catalog.ImportResult, error) {
	return c.Imports.Get(ctx, sellerID, id)
}

// Search returns one page of the seller's products that match a query,
// with how many match in all; a filter the catalog cannot apply is a
// *catalog.FilterError.
func (c *Catalog) Search(ctx context.Context, q catalog.Query) (catalog.Page, error) {
	return catalog.Search(ctx, c.Store, q)
}

// PricedProduct is a product of the seller's catalog as the pricing
// engine takes it.
type PricedProduct struct {
	ID uuid.UUID
	// Sellable is set when the product can be financed now: supported,
	// active and not archived.
	Sellable bool
	Product  pricing.Product
}

// Find returns the seller's products named by the references, keyed by
// the reference; references no product owns are absent.
func (c *Catalog) Find(ctx context.Context, sellerID uuid.UUID, refs []catalog.Reference) (map[catalog.Reference]PricedProduct, error) {
	found, err := catalog.FindByReferences(ctx, c.Store.Queries, sellerID, refs)
	if err != nil {
		return nil, err
	}
	out := make(map[catalog.Reference]PricedProduct, len(found))
	for ref, p := range found {
		out[ref] = PricedProduct{ID: p.ID, Sellable: catalog.Sellable(p), Product: catalog.PricingProduct(p)}
	}
	return out, nil
}

// PriceRequest is one product of a pricing request: its reference, and
// the prices the request sets instead of the catalog's.
type PriceRequest struct {
	// Field names the entry in messages, e.g. pricing_requests[2].
	Field           string
	Reference       catalog.Reference
	Price           *catalog.Money
	BaseRentalPrice *catalog.Money
}

// Price finds the requested products in the seller's catalog and applies
// the prices the request sets, returning them in the order asked with the
// seller's currency. A product that is unknown is priced as not
// financeable, never refused; a price the request sets badly is a
// *refusal.Invalid naming its field.
func (c *Catalog) Price(ctx context.Context, sellerID uuid.UUID, reqs []PriceRequest) ([]PricedProduct, string, error) {
	seller, err := c.Store.GetSeller(ctx, sellerID)
	if err != nil {
		return nil, "", err
	}
	refs := make([]catalog.Reference, len(reqs))
	for i, r := range reqs {
		refs[i] = r.Reference
	}
	found, err := c.Find(ctx, sellerID, refs)
	if err != nil {
		return nil, "", err
	}
	out := make([]PricedProduct, len(reqs))
	for i, r := range reqs {
		price, err := overridePrice(r.Field+".price", r.Price, seller.Currency)
		if err != nil {
			return nil, "", err
		}
		base, err := overridePrice(r.Field+".base_rental_price", r.BaseRentalPrice, seller.Currency)
		if err != nil {
			return nil, "", err
		}
		p, known := found[refs[i]]
		if !known {
			continue
		}
		out[i] = p
		if price != nil {
			out[i].Product.Price = *price
		}
		if base != nil {
			out[i].Product.BaseRentalPrice = base
		}
	}
	return out, seller.Currency, nil
}

// overridePrice checks a price sent with a pricing request.
func overridePrice(field string, in *catalog.Money, currency string) (*pricing.Money, error) {
	if in == nil {
		return nil, nil
	}
	m, err := catalog.ValidateMoney(field, *in, currency)
	if err != nil {
		return nil, refusal.Invalidf("field %s", err.Error())
	}
	return &m, nil
}
