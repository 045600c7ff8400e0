package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Importer stores validated products, matching them to the catalog by
// reference: a product one of whose pairs the catalog knows replaces that
// catalog product; any other becomes a new product.
type Importer struct {
	Policy Policy
}

// owner is a catalog product that owns a pair of an incoming product.
type owner struct {
	id     uuid.UUID
	status Status
	pinned bool
}

// Upsert writes a chunk of validated products in the caller's transaction
// and returns how many were stored and the ones refused because their
// pairs name two different catalog products (or one an earlier product of
// the chunk already names). It holds the seller's catalog lock until the
// transaction ends.
func (im Importer) Upsert(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, chunk []Valid) (int, []Rejection, error) {
	if len(chunk) == 0 {
		return 0, nil, nil
	}
	if err := q.LockSellerCatalog(ctx, sellerID); err != nil {
		return 0, nil, err
	}
	owners, err := referenceOwners(ctx, q, sellerID, chunk)
	if err != nil {
		return 0, nil, err
	}
	slots := 0
	if im.Policy.Sandbox {
		supported, err := q.CountSupportedProducts(ctx, sellerID)
		if err != nil {
			return 0, nil, err
		}
		slots = im.Policy.SandboxLimit - int(supported)
	}

	var (
		rows       []dbgen.UpsertProductParams
		rejections []Rejection
		replaced   []uuid.UUID
		refs       dbgen.InsertProductReferencesParams
	)
	claimed := map[uuid.UUID]bool{}
	for _, v := range chunk {
		existing, rej := matchOwner(v, owners, claimed)
		if rej != nil {
			rejections = append(rejections, *rej)
			continue
		}
		id := uuid.Must(uuid.NewV7())
		if existing != nil {
			id = existing.id
			claimed[id] = true
			replaced = append(replaced, id)
		}
		verdict := im.verdict(v.Product, existing, &slots)
		row, err := upsertParams(sellerID, id, v.Product, verdict, im.Policy.PricingCategory(v.Product))
		if err != nil {
			return 0, nil, err
		}
		rows = append(rows, row)
		for i, r := range v.Product.References {
			refs.Sources = append(refs.Sources, r.Source)
			refs.Refs = append(refs.Refs, r.Reference)
			refs.ProductIds = append(refs.ProductIds, id)
			refs.Positions = append(refs.Positions, int32(i))
		}
	}
	if len(rows) == 0 {
		return 0, rejections, nil
	}
	results := q.UpsertProduct(ctx, rows)
	results.Exec(func(_ int, e error) {
		if err == nil {
			err = e
		}
	})
	if closeErr := results.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return 0, nil, fmt.Errorf("storing products: %w", err)
	}
	if err := q.DeleteProductReferences(ctx, replaced); err != nil {
		return 0, nil, err
	}
	refs.SellerID = sellerID
	if err := q.InsertProductReferences(ctx, refs); err != nil {
		return 0, nil, fmt.Errorf("storing product references: %w", err)
	}
	return len(rows), rejections, nil
}

// referenceOwners finds the catalog products that own the chunk's pairs.
func referenceOwners(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, chunk []Valid) (map[Reference]owner, error) {
	params := dbgen.ReferenceOwnersParams{SellerID: sellerID}
	for _, v := range chunk {
		for _, r := range v.Product.References {
			params.Sources = append(params.Sources, r.Source)
			params.Refs = append(params.Refs, r.Reference)
		}
	}
	found, err := q.ReferenceOwners(ctx, params)
	if err != nil {
		return nil, err
	}
	owners := make(map[Reference]owner, len(found))
	for _, f := range found {
		owners[Reference{f.Source, f.Reference}] = owner{id: f.ProductID, status: Status(f.SupportStatus), pinned: f.SupportPinned}
	}
	return owners, nil
}

// matchOwner finds the one catalog product a product replaces, if any.
func matchOwner(v Valid, owners map[Reference]owner, claimed map[uuid.UUID]bool) (*owner, *Rejection) {
	var match *owner
	var matchRef Reference
	for _, r := range v.Product.References {
		o, ok := owners[r]
		if !ok {
			continue
		}
		if match != nil && match.id != o.id {
			return nil, &Rejection{Index: v.Index, Reference: r, Code: CodeReferenceConflict,
				Description: fmt.Sprintf("(%s, %s) and (%s, %s) belong to two different catalog products", matchRef.Source, matchRef.Reference, r.Source, r.Reference)}
		}
		match, matchRef = &o, r
	}
	if match != nil && claimed[match.id] {
		return nil, &Rejection{Index: v.Index, Reference: matchRef, Code: CodeReferenceConflict,
			Description: fmt.Sprintf("(%s, %s) names a catalog product an earlier product of this batch already replaces", matchRef.Source, matchRef.Reference)}
	}
	return match, nil
}

// verdict decides the support status of a product being stored. A pinned
// status stays. In the sandbox a product is supported while the seller has
// free slots; one that is supported already keeps its slot.
func (im Importer) verdict(p Product, existing *owner, slots *int) Verdict {
	if existing != nil && existing.pinned {
		// The upsert keeps a pinned status and its reason.
		return Verdict{Status: existing.status}
	}
	if !im.Policy.Sandbox {
		return im.Policy.Rules.Categorize(p)
	}
	if existing != nil && existing.status == Supported {
		return Verdict{Status: Supported}
	}
	if *slots > 0 {
		*slots--
		return Verdict{Status: Supported}
	}
	return Verdict{Unsupported, im.Policy.sandboxLimitReason()}
}

func upsertParams(sellerID, id uuid.UUID, p Product, v Verdict, pricingCategory string) (dbgen.UpsertProductParams, error) {
	identifiers, err := json.Marshal(nonNil(p.Identifiers))
	if err != nil {
		return dbgen.UpsertProductParams{}, err
	}
	categories, err := json.Marshal(nonNil(p.Categories))
	if err != nil {
		return dbgen.UpsertProductParams{}, err
	}
	details, err := json.Marshal(nonNil(p.Details))
	if err != nil {
		return dbgen.UpsertProductParams{}, err
	}
	row := dbgen.UpsertProductParams{
		ID:                  id,
		SellerID:            sellerID,
		Title:               p.Title,
		Subtitle:            p.Subtitle,
		Description:         p.Description,
		Manufacturer:        p.Manufacturer,
		IsActive:            p.IsActive,
		Currency:            p.ListPrice.Currency,
		PriceNet:            p.ListPrice.Net,
		PriceGross:          p.ListPrice.Gross,
		TaxRate:             p.ListPrice.TaxRate,
		Ean:                 p.EAN,
		Mpn:                 p.MPN,
		PrettyID:            p.PrettyID(),
		Origin:              string(OriginManual),
		PricingCategory:     pricingCategory,
		StandardIdentifiers: identifiers,
		SellerCategories:    categories,
		ExtraDetails:        details,
		ImageUrl:            p.ImageURL,
		ShopUrl:             p.ShopURL,
		SupportStatus:       string(v.Status),
		SupportReason:       v.Reason,
		SearchText:          SearchText(p),
	}
	if p.Type != "" {
		row.ProductType = &p.Type
	}
	if p.BaseRental != nil {
		row.BaseRentalNet, row.BaseRentalGross = &p.BaseRental.Net, &p.BaseRental.Gross
	}
	return row, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// SearchText is what term searches look in: title, subtitle, manufacturer,
// references, EAN and MPN, lower-cased, one per line so a term (whose
// control characters become spaces, see searchable) never matches across
// two of them.
func SearchText(p Product) string {
	parts := []string{p.Title, p.Subtitle, p.Manufacturer}
	for _, r := range p.References {
		parts = append(parts, r.Reference)
	}
	parts = append(parts, p.EAN, p.MPN)
	for i, part := range parts {
		parts[i] = searchable(part)
	}
	return strings.Join(parts, "\n")
}

// searchable is text as search compares it: lower-cased, with control
// characters (line breaks, tabs) as spaces.
func searchable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return unicode.ToLower(r)
	}, s)
}
