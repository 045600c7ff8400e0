package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/google/uuid"
	"github.com/tenurehq/tenure/csvimport"
	"github.com/tenurehq/tenure/workflows/catalogimport"
)

// CSVImports runs the steps of the CSV import jobs.
type CSVImports struct {
	Jobs      csvimport.Jobs
	Processor csvimport.Processor
	Reports   csvimport.ErrorReport
}

// Process stores the job's rows, beating after every chunk so that a
// cancelled job stops at the next one.
func (c *CSVImports) Process(ctx context.Context, id uuid.UUID) error {
	_, err := c.Processor.Process(ctx, id, func(j csvimport.Job) {
		activity.RecordHeartbeat(ctx, j.Processed)
	})
	var fileErr *csvimport.FileError
	switch {
	case errors.As(err, &fileErr):
		return temporal.NewNonRetryableApplicationError(fileErr.Reason, catalogimport.ErrFileRejected, nil)
	case errors.Is(err, csvimport.ErrNotFound):
		return temporal.NewNonRetryableApplicationError(err.Error(), catalogimport.ErrImportNotFound, nil)
	}
	return err
}

// SetStatus records a status of the job and returns the job as recorded
// (a finished job keeps its status).
func (c *CSVImports) SetStatus(ctx context.Context, in catalogimport.StatusChange) (csvimport.Job, error) {
	return c.Jobs.SetStatus(ctx, in.ImportID, in.Status, in.Error)
}

// ExpireUpload fails the job if its upload never came.
func (c *CSVImports) ExpireUpload(ctx context.Context, in catalogimport.Expiry) (csvimport.UploadState, error) {
	return c.Jobs.ExpireUpload(ctx, in.ImportID, in.Force)
}

// WriteErrors writes the report of the job's failed rows.
func (c *CSVImports) WriteErrors(ctx context.Context, id uuid.UUID) error {
	return c.Reports.Write(ctx, id)
}
