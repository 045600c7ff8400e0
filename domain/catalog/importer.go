package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Importer stores validated products, matching them to the catalog by
// reference: a product one of whose pairs the catalog knows replaces that
// catalog product; any other becomes a new product. A chunk's new products
// are copied (COPY) into the catalog, its replacements into a staging table
// and applied by one statement, so large imports cost a few round trips
// per chunk rather than one per product.
type Importer struct {
	Policy Policy
}

// placed is a product whose catalog id and support verdict are decided.
type placed struct {
	id       uuid.UUID
	product  Product
	verdict  Verdict
	replaces bool
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
	refs := make([][]Reference, len(chunk))
	for i, v := range chunk {
		refs[i] = v.Product.References
	}
	c, err := im.begin(ctx, q, sellerID, refs, q.LockSellerCatalog, nil)
	if err != nil {
		return 0, nil, err
	}
	var rejections []Rejection
	for _, v := range chunk {
		existing, rej := c.match(v.Index, v.Product.References)
		if rej != nil {
			rejections = append(rejections, *rej)
			continue
		}
		c.place(v.Product, existing)
	}
	stored := len(c.rows)
	return stored, rejections, c.write(ctx, q, nil)
}

// chunkLoad is one chunk on its way into the catalog: the catalog products
// its pairs name, and the products placed so far.
type chunkLoad struct {
	im       Importer
	sellerID uuid.UUID
	owners   map[Reference]dbgen.Product
	claimed  map[uuid.UUID]bool
	slots    int
	rows     []placed
}

// begin takes the seller's catalog lock with lock and finds the catalog
// products the chunk's pairs name, and the sandbox's free support slots,
// less those the import's chunk ahead takes (ahead is nil when none is in
// flight).
func (im Importer) begin(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, refs [][]Reference, lock func(context.Context, uuid.UUID) error, ahead *Flight) (*chunkLoad, error) {
	if err := lock(ctx, sellerID); err != nil {
		return nil, err
	}
	params := dbgen.ProductsByReferencesParams{SellerID: sellerID}
	for _, rs := range refs {
		for _, r := range rs {
			params.Sources = append(params.Sources, r.Source)
			params.Refs = append(params.Refs, r.Reference)
		}
	}
	found, err := q.ProductsByReferences(ctx, params)
	if err != nil {
		return nil, err
	}
	c := &chunkLoad{im: im, sellerID: sellerID, owners: make(map[Reference]dbgen.Product, len(found)), claimed: map[uuid.UUID]bool{},
		// A placed product is large: growing the slice copied each
		// several times.
		rows: make([]placed, 0, len(refs))}
	for _, f := range found {
		c.owners[Reference{f.RefSource, f.RefReference}] = f.Product
	}
	if im.Policy.Sandbox {
		// Whether or not the chunk ahead has committed when this count
		// runs, its new products are counted once: left out here and
		// taken from the free slots below.
		taken := ahead.supportedIDs()
		supported, err := q.CountSupportedProducts(ctx, dbgen.CountSupportedProductsParams{SellerID: sellerID, Excluded: taken})
		if err != nil {
			return nil, err
		}
		c.slots = im.Policy.SandboxLimit - int(supported) - len(taken)
	}
	return c, nil
}

// match finds the one catalog product a product with these pairs
// replaces, if any.
func (c *chunkLoad) match(index int, refs []Reference) (*dbgen.Product, *Rejection) {
	var match *dbgen.Product
	var matchRef Reference
	for _, r := range refs {
		o, ok := c.owners[r]
		if !ok {
			continue
		}
		if match != nil && match.ID != o.ID {
			return nil, &Rejection{Index: index, Reference: r, Code: CodeReferenceConflict,
				Description: fmt.Sprintf("(%s, %s) and (%s, %s) belong to two different catalog products", matchRef.Source, matchRef.Reference, r.Source, r.Reference)}
		}
		match, matchRef = &o, r
	}
	if match != nil && c.claimed[match.ID] {
		return nil, &Rejection{Index: index, Reference: matchRef, Code: CodeReferenceConflict,
			Description: fmt.Sprintf("(%s, %s) names a catalog product an earlier product of this batch already replaces", matchRef.Source, matchRef.Reference)}
	}
	return match, nil
}

// place decides the id and support verdict of a product to store.
func (c *chunkLoad) place(p Product, existing *dbgen.Product) Verdict {
	row := placed{id: uuid.Must(uuid.NewV7()), product: p}
	if existing != nil {
		row.id, row.replaces = existing.ID, true
		c.claimed[existing.ID] = true
	}
	row.verdict = c.verdict(p, existing)
	c.rows = append(c.rows, row)
	return row.verdict
}

// verdict decides the support status of a product being stored. A pinned
// status stays. In the sandbox a product is supported while the seller has
// free slots; one that is supported already keeps its slot.
func (c *chunkLoad) verdict(p Product, existing *dbgen.Product) Verdict {
	if existing != nil && existing.SupportPinned {
		// The upsert keeps a pinned status and its reason.
		return Verdict{Status: Status(existing.SupportStatus)}
	}
	policy := c.im.Policy
	if !policy.Sandbox {
		return policy.Rules.Categorize(p)
	}
	if existing != nil && Status(existing.SupportStatus) == Supported {
		return Verdict{Status: Supported}
	}
	if c.slots > 0 {
		c.slots--
		return Verdict{Status: Supported}
	}
	return Verdict{Unsupported, policy.sandboxLimitReason()}
}

// write copies the placed products the catalog does not know into it,
// stages and applies the ones that replace catalog products, and replaces
// their pairs; importID, when set, marks them as written by that file
// import. New products skip the staging table, as most rows of a first
// import are new, and an UPDATE applies the staged ones: the upsert it
// replaced made a re-import take 38 % longer.
func (c *chunkLoad) write(ctx context.Context, q *dbgen.Queries, importID *uuid.UUID) error {
	if len(c.rows) == 0 {
		return nil
	}
	var (
		refs     []dbgen.CopyProductReferencesParams
		replaced []uuid.UUID
	)
	created, staged, err := c.build(importID)
	if err != nil {
		return err
	}
	for _, row := range c.rows {
		if row.replaces {
			replaced = append(replaced, row.id)
		}
		for i, r := range row.product.References {
			refs = append(refs, dbgen.CopyProductReferencesParams{
				SellerID: c.sellerID, Source: r.Source, Reference: r.Reference, ProductID: row.id, Position: int32(i),
			})
		}
	}
	// What is written is in the rows built above: the placed products,
	// as large, go before the copies' buffers grow (two chunks are
	// written at a time, see Flight).
	c.rows = nil
	if len(created) > 0 {
		if _, err := q.CopyProducts(ctx, created); err != nil {
			return fmt.Errorf("storing new products: %w", err)
		}
	}
	if len(staged) > 0 {
		if _, err := q.StageProducts(ctx, staged); err != nil {
			return fmt.Errorf("staging products: %w", err)
		}
		if err := q.UpdateStagedProducts(ctx); err != nil {
			return fmt.Errorf("storing products: %w", err)
		}
		if err := q.DeleteStagedProducts(ctx); err != nil {
			return err
		}
		if err := q.DeleteProductReferences(ctx, replaced); err != nil {
			return err
		}
	}
	if _, err := q.CopyProductReferences(ctx, refs); err != nil {
		return fmt.Errorf("storing product references: %w", err)
	}
	return nil
}

// rowsPerBuilder is the fewest rows worth a goroutine of their own.
const rowsPerBuilder = 1000

// build turns the placed products into rows as the catalog stores them:
// the new ones to copy in and the ones to stage, each in the chunk's order.
// The work is split over the processors, as building (JSON, search text)
// is the largest part of the importer's own work and the chunk's
// transaction waits for it with the database idle.
func (c *chunkLoad) build(importID *uuid.UUID) ([]dbgen.CopyProductsParams, []dbgen.StageProductsParams, error) {
	// slot[i] is row i's place among the new or the staged rows.
	slot := make([]int, len(c.rows))
	var created, staged int
	for i, row := range c.rows {
		if row.replaces {
			slot[i], staged = staged, staged+1
		} else {
			slot[i], created = created, created+1
		}
	}
	newRows, stagedRows := make([]dbgen.CopyProductsParams, created), make([]dbgen.StageProductsParams, staged)
	per := max(rowsPerBuilder, (len(c.rows)+runtime.GOMAXPROCS(0)-1)/runtime.GOMAXPROCS(0))
	var g errgroup.Group
	for lo := 0; lo < len(c.rows); lo += per {
		g.Go(func() error {
			for i := lo; i < min(lo+per, len(c.rows)); i++ {
				row := c.rows[i]
				s, err := productRow(c.sellerID, row, c.im.Policy.PricingCategory(row.product), importID)
				if err != nil {
					return err
				}
				if row.replaces {
					stagedRows[slot[i]] = dbgen.StageProductsParams(s)
				} else {
					newRows[slot[i]] = s
				}
			}
			return nil
		})
	}
	return newRows, stagedRows, g.Wait()
}

// productRow is a placed product as the catalog stores it.
func productRow(sellerID uuid.UUID, row placed, pricingCategory string, importID *uuid.UUID) (dbgen.CopyProductsParams, error) {
	p := row.product
	identifiers, err := jsonList(p.Identifiers)
	if err != nil {
		return dbgen.CopyProductsParams{}, err
	}
	categories, err := jsonList(p.Categories)
	if err != nil {
		return dbgen.CopyProductsParams{}, err
	}
	details, err := jsonList(p.Details)
	if err != nil {
		return dbgen.CopyProductsParams{}, err
	}
	s := dbgen.CopyProductsParams{
		ID:                  row.id,
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
		SupportStatus:       string(row.verdict.Status),
		SupportReason:       row.verdict.Reason,
		SearchText:          SearchText(p),
		ImportID:            importID,
		// A file import's rows enter the trigram index after the job
		// (SearchIndexer): maintaining it row by row was two thirds of
		// a first import.
		SearchPending: importID != nil,
	}
	if p.Type != "" {
		s.ProductType = &p.Type
	}
	if p.BaseRental != nil {
		s.BaseRentalNet, s.BaseRentalGross = &p.BaseRental.Net, &p.BaseRental.Gross
	}
	return s, nil
}

// jsonList is a list as the catalog's jsonb columns hold it (a product's
// identifiers, categories and details, an import's sample of rejections):
// [] when it is empty, as most are, without the encoder.
func jsonList[T any](s []T) ([]byte, error) {
	if len(s) == 0 {
		return []byte("[]"), nil
	}
	return json.Marshal(s)
}

// SearchText is what term searches look in: title, subtitle, manufacturer,
// references, EAN and MPN, lower-cased, one per line so a term (whose
// control characters become spaces, see searchable) never matches across
// two of them. It is built in one buffer, as an import builds one per row.
func SearchText(p Product) string {
	n := len(p.Title) + len(p.Subtitle) + len(p.Manufacturer) + len(p.EAN) + len(p.MPN) + 4
	for _, r := range p.References {
		n += len(r.Reference) + 1
	}
	var b strings.Builder
	b.Grow(n)
	writeSearchable(&b, p.Title)
	for _, part := range [...]string{p.Subtitle, p.Manufacturer} {
		b.WriteByte('\n')
		writeSearchable(&b, part)
	}
	for _, r := range p.References {
		b.WriteByte('\n')
		writeSearchable(&b, r.Reference)
	}
	for _, part := range [...]string{p.EAN, p.MPN} {
		b.WriteByte('\n')
		writeSearchable(&b, part)
	}
	return b.String()
}

// searchable is text as search compares it: lower-cased, with control
// characters (line breaks, tabs) as spaces.
func searchable(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	writeSearchable(&b, s)
	return b.String()
}

// writeSearchable writes s as searchable returns it, a byte at a time while
// it is ASCII (most catalog text), where lower case and control characters
// are a comparison away.
func writeSearchable(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			for _, r := range s[i:] {
				if unicode.IsControl(r) {
					r = ' '
				}
				b.WriteRune(unicode.ToLower(r))
			}
			return
		case c < ' ' || c == 0x7f:
			c = ' '
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
}
