package seller

import (
	"context"
	"errors"
	"strings"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// defaultImportFilename names a job created without a file name, which
// the contract allows.
const defaultImportFilename = "catalog.csv"

// csvImports serves the CSV import jobs through the catalog import
// service.
type csvImports struct {
	imports *services.CatalogImports
}

// CreateCatalogImport records a pending job, starts its workflow and
// returns the link to upload the file to.
func (h csvImports) CreateCatalogImport(ctx context.Context, req sellerapi.CreateCatalogImportRequestObject) (sellerapi.CreateCatalogImportResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	filename := strings.TrimSpace(optional.Value(req.Body.Filename))
	if filename == "" {
		filename = defaultImportFilename
	}
	created, err := h.imports.Create(ctx, claims.SellerID, filename)
	if errors.Is(err, csvimport.ErrTooManyImports) {
		return nil, apierror.TooManyRequests("%s: wait for one to finish or cancel one", err.Error())
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.CreateCatalogImport201JSONResponse{Id: created.Job.ID.String(), UploadUrl: created.UploadURL}, nil
}

// GetCatalogImport returns a job with its counters.
func (h csvImports) GetCatalogImport(ctx context.Context, req sellerapi.GetCatalogImportRequestObject) (sellerapi.GetCatalogImportResponseObject, error) {
	job, err := h.sellerJob(ctx, req.Id.String())
	if err != nil {
		return nil, err
	}
	return sellerapi.GetCatalogImport200JSONResponse(h.view(job)), nil
}

// CancelCatalogImport cancels a pending, queued or running job; rows
// already stored stay.
func (h csvImports) CancelCatalogImport(ctx context.Context, req sellerapi.CancelCatalogImportRequestObject) (sellerapi.CancelCatalogImportResponseObject, error) {
	job, err := h.sellerJob(ctx, req.Id.String())
	if err != nil {
		return nil, err
	}
	err = h.imports.Cancel(ctx, job)
	var refused *refusal.Error
	switch {
	case err == nil:
		return sellerapi.CancelCatalogImport200Response{}, nil
	case errors.As(err, &refused):
		return nil, apierror.Unprocessable("%s", refused.Message)
	case errors.Is(err, services.ErrUnavailable):
		return nil, apierror.Unavailable("the import did not confirm the cancellation in time; it may still be cancelled")
	}
	return nil, err
}

// sellerJob finds a job of the caller's.
func (h csvImports) sellerJob(ctx context.Context, rawID string) (csvimport.Job, error) {
	sellerID, id, err := callerAndID(ctx, "CSV import", rawID)
	if err != nil {
		return csvimport.Job{}, err
	}
	job, err := h.imports.Get(ctx, sellerID, id)
	if errors.Is(err, csvimport.ErrNotFound) {
		return csvimport.Job{}, apierror.NotFound("CSV import %s not found", rawID)
	}
	return job, err
}

// view is a job as the contract shows it.
func (h csvImports) view(j csvimport.Job) sellerapi.CsvImportJob {
	categorised := j.Supported + j.Unsupported + j.ToBeReviewed
	v := sellerapi.CsvImportJob{
		Id: j.ID.String(), Filename: j.Filename, Status: sellerapi.CsvImportJobStatus(j.Status), ObjectPath: j.ObjectPath,
		CreatedAt: j.CreatedAt.UTC(), UpdatedAt: j.UpdatedAt.UTC(),
		Processed: j.Processed, Succeeded: j.Succeeded, Failed: j.Failed,
		Categorization: &sellerapi.CsvImportCategorization{
			// Products are categorised in the transaction that stores
			// them, so nothing stored is left pending.
			Done:         j.Succeeded > 0 && categorised == j.Succeeded,
			Pending:      j.Succeeded - categorised,
			Supported:    j.Supported,
			Unsupported:  j.Unsupported,
			ToBeReviewed: j.ToBeReviewed,
			Total:        j.Succeeded,
		},
	}
	if j.Error != "" {
		v.Error = &j.Error
	}
	if u := h.imports.ErrorsURL(j); u != "" {
		v.ErrorsUrl = &u
	}
	return v
}
