// Package csvimport is the CSV catalog import jobs: creating a job and its
// signed upload link, receiving the file into blob storage, streaming it
// row by row into the catalog in chunks, and the report of failed rows.
// The job's workflow (workflows/csvimport) drives these steps.
package csvimport

import (
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Status is the state of a job.
type Status string

// The statuses of a job: pending (waiting for the file) → queued (file
// received) → running (rows being stored) → ingested (rows stored, error
// report being written) → completed; failed when the file cannot be
// processed; cancelled on request.
const (
	Pending   Status = "pending"
	Queued    Status = "queued"
	Running   Status = "running"
	Ingested  Status = "ingested"
	Completed Status = "completed"
	Failed    Status = "failed"
	Cancelled Status = "cancelled"
)

// Limits of the spec.
const (
	// MaxFileSize is the largest file an upload may carry (250 MB).
	MaxFileSize = 262144000
	// ContentLengthRange is the value the upload's range header must have.
	ContentLengthRange = "0,262144000"
)

// Errors of the job operations.
var (
	ErrNotFound       = errors.New("no CSV import job with this id")
	ErrTooManyImports = errors.New("too many CSV imports in progress")
)

// Job is a CSV import job as the Seller API shows it.
type Job struct {
	ID         uuid.UUID
	SellerID   uuid.UUID
	Filename   string
	Status     Status
	ObjectPath string
	Error      string
	Processed  int64
	Succeeded  int64
	Failed     int64
	Supported  int64
	// Unsupported and ToBeReviewed complete the categorisation counters.
	Unsupported  int64
	ToBeReviewed int64
	// ErrorsPath is where the error report is, once written.
	ErrorsPath string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// jobOf is a stored job.
func jobOf(r dbgen.CsvImport) Job {
	return Job{
		ID: r.ID, SellerID: r.SellerID, Filename: r.Filename, Status: Status(r.Status), ObjectPath: r.ObjectPath,
		Error: r.Error, Processed: r.Processed, Succeeded: r.Succeeded, Failed: r.Failed,
		Supported: r.Supported, Unsupported: r.Unsupported, ToBeReviewed: r.ToBeReviewed,
		ErrorsPath: r.ErrorsPath, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

// objectPath is where a job's file is kept in the bucket.
func objectPath(id uuid.UUID) string { return "catalog-imports/" + id.String() + "/upload.csv" }

// errorsPath is where a job's error report is kept in the bucket.
func errorsPath(id uuid.UUID) string { return "catalog-imports/" + id.String() + "/errors.csv" }
