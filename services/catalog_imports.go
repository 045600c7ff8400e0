package services

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"gocloud.dev/blob"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/workflows/catalogimport"
	"github.com/tenurehq/tenure/workflows/entity"
)

// CatalogImports runs the CSV import jobs, each a catalog-import workflow:
// creating and cancelling them, receiving their files through the upload
// links and serving their error reports.
type CatalogImports struct {
	Jobs     csvimport.Jobs
	Uploads  csvimport.Uploads
	Reports  csvimport.ErrorReport
	Temporal client.Client
}

// newCatalogImports builds the CSV import jobs over the deployment's blob
// store.
func newCatalogImports(cfg *config.Config, store *db.Store, temporal client.Client, bucket *blob.Bucket) *CatalogImports {
	signer := links.NewSigner(cfg.Links.SigningKey)
	im := cfg.Catalog.Imports
	return &CatalogImports{
		Jobs: csvimport.Jobs{
			Store: store, Links: signer, PublicURL: cfg.HTTP.PublicURL,
			UploadTTL: im.UploadTTL, ErrorsLinkTTL: im.ErrorsLinkTTL, MaxActive: im.MaxActive,
		},
		Uploads:  csvimport.Uploads{Store: store, Bucket: bucket, Links: signer},
		Reports:  csvimport.ErrorReport{Store: store, Bucket: bucket},
		Temporal: temporal,
	}
}

// Create records a pending job and starts its workflow; the result names
// the link to upload the file to. A seller with too many imports in
// progress gets csvimport.ErrTooManyImports.
func (x *CatalogImports) Create(ctx context.Context, sellerID uuid.UUID, filename string) (csvimport.Created, error) {
	return x.Jobs.Create(ctx, sellerID, filename, x.start)
}

// start starts the workflow of a job being created.
func (x *CatalogImports) start(ctx context.Context, c csvimport.Created) error {
	_, err := x.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        catalogimport.WorkflowID(c.Job.ID),
		TaskQueue: catalogimport.TaskQueue,
	}, catalogimport.ImportCSV, catalogimport.Input{ImportID: c.Job.ID, UploadDeadline: c.UploadDeadline})
	return err
}

// Get reads a job of the seller; an unknown one is csvimport.ErrNotFound.
func (x *CatalogImports) Get(ctx context.Context, sellerID, id uuid.UUID) (csvimport.Job, error) {
	return x.Jobs.Get(ctx, sellerID, id)
}

// ErrorsURL is the link to a job's error report, "" while it has none.
func (x *CatalogImports) ErrorsURL(j csvimport.Job) string {
	return x.Jobs.ErrorsURL(j, time.Now())
}

// Cancel cancels a pending, queued or running job; rows already stored
// stay. A job past running is refused (*refusal.Error), and a workflow
// that does not confirm in time is ErrUnavailable.
func (x *CatalogImports) Cancel(ctx context.Context, job csvimport.Job) error {
	if !catalogimport.Cancellable(job.Status) {
		return catalogimport.CancelRefusal(job.Status)
	}
	err := entity.Update(ctx, x.Temporal, catalogimport.WorkflowID(job.ID), catalogimport.CancelUpdate, nil)
	switch {
	case err == nil:
		return nil
	case entity.Ended(err):
		return refusal.New(refusal.StatusNotAllowed, "the import has finished: only pending, queued or running imports can be cancelled")
	case entity.TimedOut(err):
		return ErrUnavailable
	}
	if refused, ok := entity.RefusalOf(err); ok {
		return refused
	}
	return err
}

// ErrImportEnded says a job's workflow ended while its file was being
// received: the seller creates a new import.
var ErrImportEnded = errors.New("the import ended while the file was being received")

// Receive stores the file of an upload link and tells the job's workflow.
// A refused upload is a *csvimport.UploadError.
func (x *CatalogImports) Receive(ctx context.Context, up csvimport.Upload) error {
	job, err := x.Uploads.Receive(ctx, up)
	if err != nil {
		return err
	}
	err = x.Temporal.SignalWorkflow(ctx, catalogimport.WorkflowID(job.ID), "", catalogimport.UploadedSignal, nil)
	if entity.Ended(err) {
		return ErrImportEnded
	}
	return err
}

// ErrLinkNotValid refuses a link to an error report whose token is wrong
// or expired.
var ErrLinkNotValid = errors.New("the link is not valid or has expired")

// OpenErrorReport opens the error report of a job for the holder of its
// link; a job without one is csvimport.ErrNotFound. The caller closes the
// reader.
func (x *CatalogImports) OpenErrorReport(ctx context.Context, id uuid.UUID, token string) (*blob.Reader, error) {
	if x.Jobs.VerifyErrorsToken(id, token) != nil {
		return nil, ErrLinkNotValid
	}
	job, err := x.Jobs.Job(ctx, id)
	if err != nil {
		return nil, err
	}
	return x.Reports.Open(ctx, job)
}
