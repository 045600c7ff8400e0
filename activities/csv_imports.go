package activities

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/csvimport"
)

// ErrFileRejected is the application error type of a CSV file that is not
// importable as a whole; its message is the job's error.
const ErrFileRejected = "FileRejected"

// CSVImports runs the steps of the CSV import jobs.
type CSVImports struct {
	Jobs      csvimport.Jobs
	Processor csvimport.Processor
	Reports   csvimport.ErrorReport
	Search    catalog.SearchIndexer
}

// CSVStatusChange is a status a job moves to, with the reason of a failure.
type CSVStatusChange struct {
	ImportID uuid.UUID
	Status   csvimport.Status
	Error    string
}

// CSVUploadExpiry fails a job whose upload did not come; Force also fails
// one whose upload is still under way.
type CSVUploadExpiry struct {
	ImportID uuid.UUID
	Force    bool
}

// ProcessCSVImport stores the job's rows, beating after every chunk so
// that a cancelled job stops at the next one.
func (c *CSVImports) ProcessCSVImport(ctx context.Context, id uuid.UUID) error {
	_, err := c.Processor.Process(ctx, id, func(j csvimport.Job) {
		activity.RecordHeartbeat(ctx, j.Processed)
	})
	var fileErr *csvimport.FileError
	switch {
	case errors.As(err, &fileErr):
		return temporal.NewNonRetryableApplicationError(fileErr.Reason, ErrFileRejected, nil)
	case errors.Is(err, csvimport.ErrNotFound):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrImportNotFound, nil)
	}
	return err
}

// SetCSVImportStatus records a status of the job and returns the job as
// recorded (a finished job keeps its status).
func (c *CSVImports) SetCSVImportStatus(ctx context.Context, in CSVStatusChange) (csvimport.Job, error) {
	return c.Jobs.SetStatus(ctx, in.ImportID, in.Status, in.Error)
}

// ExpireCSVUpload fails the job if its upload never came.
func (c *CSVImports) ExpireCSVUpload(ctx context.Context, in CSVUploadExpiry) (csvimport.UploadState, error) {
	return c.Jobs.ExpireUpload(ctx, in.ImportID, in.Force)
}

// WriteCSVImportErrors writes the report of the job's failed rows.
func (c *CSVImports) WriteCSVImportErrors(ctx context.Context, id uuid.UUID) error {
	return c.Reports.Write(ctx, id)
}

// IndexCSVImportSearch lets the products of the job's seller that wait for
// the search index into it, beating after every batch.
func (c *CSVImports) IndexCSVImportSearch(ctx context.Context, id uuid.UUID) error {
	job, err := c.Jobs.Job(ctx, id)
	if errors.Is(err, csvimport.ErrNotFound) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrImportNotFound, nil)
	}
	if err != nil {
		return err
	}
	_, err = c.Search.Index(ctx, job.SellerID, func(indexed int64) {
		activity.RecordHeartbeat(ctx, indexed)
	})
	return err
}
