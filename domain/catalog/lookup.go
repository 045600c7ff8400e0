package catalog

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/pricing"
)

// Item is a catalog product with its references in the seller's order.
type Item struct {
	dbgen.Product
	References []Reference
}

// Sellable reports whether a product can be financed now: supported,
// active and not archived.
func Sellable(p dbgen.Product) bool {
	return Status(p.SupportStatus) == Supported && p.IsActive && !p.Archived
}

// PricingProduct is what the pricing engine needs to know about a product.
func PricingProduct(p dbgen.Product) pricing.Product {
	out := pricing.Product{
		Price:    pricing.Money{Currency: p.Currency, Net: p.PriceNet, Gross: p.PriceGross, TaxRate: p.TaxRate},
		Category: p.PricingCategory,
	}
	if p.BaseRentalNet != nil && p.BaseRentalGross != nil {
		out.BaseRentalPrice = &pricing.Money{
			Currency: p.Currency, Net: *p.BaseRentalNet, Gross: *p.BaseRentalGross,
			TaxRate: pricing.TaxRateOf(*p.BaseRentalNet, *p.BaseRentalGross),
		}
	}
	return out
}

// FindByReferences returns the seller's products named by the pairs, keyed
// by the pair; pairs no product owns are absent.
func FindByReferences(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, refs []Reference) (map[Reference]dbgen.Product, error) {
	params := dbgen.ProductsByReferencesParams{SellerID: sellerID}
	params.Sources, params.Refs = pairs(refs)
	rows, err := q.ProductsByReferences(ctx, params)
	if err != nil {
		return nil, err
	}
	found := make(map[Reference]dbgen.Product, len(rows))
	for _, r := range rows {
		found[Reference{r.RefSource, r.RefReference}] = r.Product
	}
	return found, nil
}

// FindItemsByReferences is FindByReferences with each product's references
// in the seller's order, read in one query where ItemsByIDs after
// FindByReferences takes three: an offer's creation reads its lines so.
func FindItemsByReferences(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, refs []Reference) (map[Reference]Item, error) {
	params := dbgen.ItemsByReferencesParams{SellerID: sellerID}
	params.Sources, params.Refs = pairs(refs)
	rows, err := q.ItemsByReferences(ctx, params)
	if err != nil {
		return nil, err
	}
	found := make(map[Reference]Item, len(rows))
	for _, r := range rows {
		own := make([]Reference, len(r.OwnSources))
		for i := range own {
			own[i] = Reference{r.OwnSources[i], r.OwnRefs[i]}
		}
		found[Reference{r.RefSource, r.RefReference}] = Item{Product: r.Product, References: own}
	}
	return found, nil
}

// pairs are the sources and references of pairs, as the queries take them.
func pairs(refs []Reference) (sources, references []string) {
	for _, r := range refs {
		sources = append(sources, r.Source)
		references = append(references, r.Reference)
	}
	return sources, references
}

// ItemsByIDs returns the seller's products with these ids, with their
// references, in the order of ids; unknown ids are skipped.
func ItemsByIDs(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, ids []uuid.UUID) ([]Item, error) {
	products, err := q.ProductsByIDs(ctx, dbgen.ProductsByIDsParams{SellerID: sellerID, Ids: ids})
	if err != nil {
		return nil, err
	}
	refs, err := q.ProductReferences(ctx, ids)
	if err != nil {
		return nil, err
	}
	byProduct := map[uuid.UUID][]Reference{}
	for _, r := range refs {
		byProduct[r.ProductID] = append(byProduct[r.ProductID], Reference{r.Source, r.Reference})
	}
	byID := make(map[uuid.UUID]dbgen.Product, len(products))
	for _, p := range products {
		byID[p.ID] = p
	}
	items := make([]Item, 0, len(products))
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			items = append(items, Item{Product: p, References: byProduct[id]})
		}
	}
	return items, nil
}
