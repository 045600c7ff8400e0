package catalog

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Revision is a row of a file import: the pairs that name its product and
// how it changes that product (a file may leave optional values out, and
// then the catalog product keeps them).
type Revision struct {
	// Line is the row's line in the file, which rejections name.
	Line       int
	References []Reference
	Apply      func(existing ProductInput) ProductInput
}

// Revised is what became of a chunk of revisions.
type Revised struct {
	Stored     int
	Verdicts   map[Status]int
	Rejections []Rejection
}

// Revise applies a chunk of a file import's rows to the catalog in the
// caller's transaction, holding the seller's catalog lock until it ends,
// shared with the other chunks of the import (see Flight). A row whose
// pair appears in an earlier row of the same import (this chunk, the
// chunk ahead in flight, or a committed one, which marked its products
// with importID) is a duplicate; the other rows are validated as merged
// with the product they name and stored. f is the chunk's flight, which
// Revise tells what it places; the caller clears it (Flight.Clear) before
// opening the transaction.
func (im Importer) Revise(ctx context.Context, q *dbgen.Queries, sellerID, importID uuid.UUID, currency string, revisions []Revision, f *Flight) (out Revised, err error) {
	var c *chunkLoad
	defer func() { f.publish(c, err) }()
	out = Revised{Verdicts: map[Status]int{}}
	ahead, err := f.clearance(ctx)
	if err != nil || len(revisions) == 0 {
		return out, err
	}
	refs := make([][]Reference, len(revisions))
	for i, r := range revisions {
		refs[i] = r.References
	}
	if c, err = im.begin(ctx, q, sellerID, refs, q.LockSellerCatalogForImport, ahead); err != nil {
		return Revised{}, err
	}
	seen := map[Reference]bool{}
	for _, r := range revisions {
		if rej := c.duplicate(r, seen, importID, ahead); rej != nil {
			out.Rejections = append(out.Rejections, *rej)
			continue
		}
		existing, rej := c.match(r.Line, r.References)
		if rej != nil {
			out.Rejections = append(out.Rejections, *rej)
			continue
		}
		base := ProductInput{}
		if existing != nil {
			if base, err = StoredInput(*existing); err != nil {
				return Revised{}, err
			}
		}
		p, rej := Validate(r.Apply(base), currency)
		if rej != nil {
			rej.Index = r.Line
			out.Rejections = append(out.Rejections, *rej)
			continue
		}
		out.Verdicts[c.place(p, existing).Status]++
	}
	out.Stored = len(c.rows)
	// The next chunk may place its rows now, beside this one's writing.
	f.publish(c, nil)
	// The stored products the chunk's rows were merged with are not
	// needed to write them: let them go before the copies' buffers grow.
	c.owners = nil
	return out, c.write(ctx, q, &importID)
}

// duplicate rejects a row that repeats a pair of an earlier row of the
// import, and remembers the row's pairs.
func (c *chunkLoad) duplicate(r Revision, seen map[Reference]bool, importID uuid.UUID, ahead *Flight) *Rejection {
	var rej *Rejection
	for _, ref := range r.References {
		o, owned := c.owners[ref]
		if rej == nil && (seen[ref] || owned && o.ImportID != nil && *o.ImportID == importID || ahead.storedPair(ref)) {
			rej = &Rejection{Index: r.Line, Reference: ref, Code: CodeDuplicateReference,
				Description: fmt.Sprintf("(%s, %s) appears in an earlier row of this file", ref.Source, ref.Reference)}
		}
		seen[ref] = true
	}
	return rej
}

// StoredInput is a catalog product as an import would have sent it, so a
// revision can change some of its values and keep the others.
func StoredInput(p dbgen.Product) (ProductInput, error) {
	in := ProductInput{
		Title:        p.Title,
		Subtitle:     p.Subtitle,
		Description:  p.Description,
		Manufacturer: p.Manufacturer,
		IsActive:     p.IsActive,
		Price:        Money{Currency: p.Currency, Net: p.PriceNet, Gross: p.PriceGross, TaxRate: &p.TaxRate},
		ImageURL:     p.ImageUrl,
		ShopURL:      p.ShopUrl,
	}
	if p.ProductType != nil {
		in.Type = *p.ProductType
	}
	if p.BaseRentalNet != nil && p.BaseRentalGross != nil {
		in.BaseRentalPrice = &Money{Currency: p.Currency, Net: *p.BaseRentalNet, Gross: *p.BaseRentalGross}
	}
	for _, f := range []struct {
		raw  []byte
		into any
	}{{p.StandardIdentifiers, &in.Identifiers}, {p.SellerCategories, &in.Categories}, {p.ExtraDetails, &in.Details}} {
		if err := json.Unmarshal(f.raw, f.into); err != nil {
			return ProductInput{}, fmt.Errorf("reading product %s: %w", p.ID, err)
		}
	}
	return in, nil
}
