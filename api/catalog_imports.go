package api

import (
	"context"
	"errors"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/workflows/catalogimport"
	"github.com/tenurehq/tenure/workflows/entity"
)

// defaultImportFilename names a job created without a file name, which
// the contract allows.
const defaultImportFilename = "catalog.csv"

// csvImports serves the CSV import jobs; each job is a catalog-import
// workflow.
type csvImports struct {
	jobs     csvimport.Jobs
	temporal client.Client
}

// CreateCatalogImport records a pending job, starts its workflow and
// returns the link to upload the file to.
func (h csvImports) CreateCatalogImport(ctx context.Context, req sellerapi.CreateCatalogImportRequestObject) (sellerapi.CreateCatalogImportResponseObject, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	filename := strings.TrimSpace(optional.Value(req.Body.Filename))
	if filename == "" {
		filename = defaultImportFilename
	}
	created, err := h.jobs.Create(ctx, claims.SellerID, filename, h.start)
	if errors.Is(err, csvimport.ErrTooManyImports) {
		return nil, TooManyRequests("%s: wait for one to finish or cancel one", err.Error())
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.CreateCatalogImport201JSONResponse{Id: created.Job.ID.String(), UploadUrl: created.UploadURL}, nil
}

// start starts the workflow of a job being created.
func (h csvImports) start(ctx context.Context, c csvimport.Created) error {
	_, err := h.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        catalogimport.WorkflowID(c.Job.ID),
		TaskQueue: catalogimport.TaskQueue,
	}, catalogimport.ImportCSV, catalogimport.Input{ImportID: c.Job.ID, UploadDeadline: c.UploadDeadline})
	return err
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
	if !catalogimport.Cancellable(job.Status) {
		return nil, Unprocessable("%s", catalogimport.CancelRefusal(job.Status).Message)
	}
	err = entity.Update(ctx, h.temporal, catalogimport.WorkflowID(job.ID), catalogimport.CancelUpdate, nil)
	switch {
	case err == nil:
		return sellerapi.CancelCatalogImport200Response{}, nil
	case entity.Ended(err):
		return nil, Unprocessable("the import has finished: only pending, queued or running imports can be cancelled")
	case entity.TimedOut(err):
		return nil, Unavailable("the import did not confirm the cancellation in time; it may still be cancelled")
	}
	if refused, ok := entity.RefusalOf(err); ok {
		return nil, Unprocessable("%s", refused.Message)
	}
	return nil, err
}

// sellerJob finds a job of the caller's.
func (h csvImports) sellerJob(ctx context.Context, rawID string) (csvimport.Job, error) {
	sellerID, id, err := callerAndID(ctx, "CSV import", rawID)
	if err != nil {
		return csvimport.Job{}, err
	}
	job, err := h.jobs.Get(ctx, sellerID, id)
	if errors.Is(err, csvimport.ErrNotFound) {
		return csvimport.Job{}, NotFound("CSV import %s not found", rawID)
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
	if u := h.jobs.ErrorsURL(j, time.Now()); u != "" {
		v.ErrorsUrl = &u
	}
	return v
}
