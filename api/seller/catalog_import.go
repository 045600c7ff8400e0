package seller

import (
	"context"
	"errors"
	"strconv"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// productImports serves product batch imports through the catalog
// service.
type productImports struct {
	catalog *services.Catalog
}

// ImportProducts imports a batch of products (the guard has refused an
// empty one, and one beyond the contract's 1,000 with 413). Per-product problems reject that product only; they are
// listed in the result.
func (h productImports) ImportProducts(ctx context.Context, req sellerapi.ImportProductsRequestObject) (sellerapi.ImportProductsResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	products := req.Body.Products
	inputs := make([]catalog.ProductInput, len(products))
	for i, p := range products {
		inputs[i] = productInput(p)
	}
	result, err := h.catalog.Import(ctx, claims.SellerID, inputs)
	if err != nil {
		return nil, err
	}
	return sellerapi.ImportProducts200JSONResponse(importView(result)), nil
}

// GetProductImport returns the current or final result of an import.
func (h productImports) GetProductImport(ctx context.Context, req sellerapi.GetProductImportRequestObject) (sellerapi.GetProductImportResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	result, err := h.catalog.GetImport(ctx, claims.SellerID, req.Id)
	if errors.Is(err, catalog.ErrImportNotFound) {
		return nil, apierror.NotFound("no product import with id %s", req.Id)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.GetProductImport200JSONResponse(importView(result)), nil
}

// productInput is a product of the request in the catalog's terms.
func productInput(p sellerapi.ProductImportItem) catalog.ProductInput {
	in := catalog.ProductInput{
		Title:        p.Title,
		Subtitle:     optional.Value(p.Subtitle),
		Description:  optional.Value(p.Description),
		Manufacturer: optional.Value(p.Manufacturer),
		Type:         string(optional.Value(p.SellerProductType)),
		IsActive:     p.IsActive,
		Price:        catalog.Money{Currency: p.Price.Currency, Net: p.Price.Net, Gross: p.Price.Gross, TaxRate: p.Price.TaxRate},
		ShopURL:      optional.Value(p.ShopProductDescriptionUrl),
	}
	if b := p.BaseRentalPrice; b != nil {
		in.BaseRentalPrice = &catalog.Money{Currency: b.Currency, Net: b.Net, Gross: b.Gross}
	}
	if p.Image != nil {
		in.ImageURL = optional.Value(p.Image.Url)
	}
	for _, r := range p.SellerProductReferences {
		in.References = append(in.References, catalog.Reference{Source: r.Source, Reference: r.Reference})
	}
	for _, id := range optional.Value(p.ProductStandardIdentifiers) {
		in.Identifiers = append(in.Identifiers, catalog.Identifier{Type: optional.Value(id.IdentifierType), ID: optional.Value(id.Id)})
	}
	for _, c := range optional.Value(p.SellerCategories) {
		in.Categories = append(in.Categories, catalog.Category{ID: c.Id, Name: c.Name, ParentID: optional.Value(c.ParentCategoryId)})
	}
	for _, d := range optional.Value(p.ExtraDetails) {
		in.Details = append(in.Details, catalog.Detail{Property: d.Property, Value: d.Value})
	}
	return in
}

// positionSource names a rejected product that has no valid reference by
// its zero-based position in the batch: the contract requires a reference
// with both parts non-empty, which such a product cannot give.
const positionSource = "batch_position"

func importView(r catalog.ImportResult) sellerapi.ProductImportResult {
	sample := make([]sellerapi.ProductImportRejection, len(r.Summary.Sample))
	for i, rej := range r.Summary.Sample {
		ref := sellerapi.SellerProductReference{Source: rej.Reference.Source, Reference: rej.Reference.Reference}
		if !rej.Reference.Valid() {
			ref = sellerapi.SellerProductReference{Source: positionSource, Reference: strconv.Itoa(rej.Index)}
		}
		sample[i] = sellerapi.ProductImportRejection{
			ErrorCode:              rej.Code,
			ErrorDescription:       &rej.Description,
			SellerProductReference: ref,
		}
	}
	return sellerapi.ProductImportResult{
		Id:     r.ID.String(),
		Status: sellerapi.ProductImportResultStatus(r.Status),
		Summary: &sellerapi.ProductImportSummary{
			TotalProducts:          int64(r.Summary.Total),
			TotalProductsImported:  int64(r.Summary.Imported),
			TotalProductsRejected:  int64(r.Summary.Rejected),
			SampleProductsRejected: sample,
		},
	}
}
