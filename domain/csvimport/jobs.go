package csvimport

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/foundation/links"
)

// Link purposes: a token made for one opens nothing else.
const (
	uploadPurpose = "csv-import-upload"
	errorsPurpose = "csv-import-errors"
)

// Jobs creates and reads CSV import jobs.
type Jobs struct {
	Store *db.Store
	Links *links.Signer
	// PublicURL is where merchants reach Tenure; links start with it.
	PublicURL     string
	UploadTTL     time.Duration
	ErrorsLinkTTL time.Duration
	MaxActive     int
}

// Created is a new job and where its file goes.
type Created struct {
	Job       Job
	UploadURL string
	// UploadDeadline is when the upload link stops working.
	UploadDeadline time.Time
}

// Create records a pending job unless the seller has MaxActive imports in
// progress, and calls start (which starts the job's workflow) before
// committing, so a recorded job always has a workflow.
func (j Jobs) Create(ctx context.Context, sellerID uuid.UUID, filename string, start func(context.Context, Created) error) (Created, error) {
	id := idempotency.NewID(ctx)
	if idempotency.Resumed(ctx) {
		// The request's first attempt may have created the job.
		row, err := j.Store.GetSellerCSVImport(ctx, dbgen.GetSellerCSVImportParams{SellerID: sellerID, ID: id})
		if err == nil {
			return j.created(row), nil
		}
		if !db.IsNotFound(err) {
			return Created{}, err
		}
	}
	var created Created
	err := j.Store.InTx(ctx, func(q *dbgen.Queries) error {
		if err := q.LockSellerImports(ctx, sellerID); err != nil {
			return err
		}
		active, err := q.CountActiveCSVImports(ctx, sellerID)
		if err != nil {
			return err
		}
		if active >= int64(j.MaxActive) {
			return fmt.Errorf("%w: %d of the seller's imports are pending, queued or running, at most %d may be",
				ErrTooManyImports, active, j.MaxActive)
		}
		if err := q.CreateCSVImport(ctx, dbgen.CreateCSVImportParams{
			ID: id, SellerID: sellerID, Filename: filename, ObjectPath: objectPath(id),
		}); err != nil {
			return err
		}
		row, err := q.GetCSVImport(ctx, id)
		if err != nil {
			return err
		}
		created = j.created(row)
		return start(ctx, created)
	})
	return created, err
}

// created is a pending job with its upload link.
func (j Jobs) created(row dbgen.CsvImport) Created {
	deadline := row.CreatedAt.Add(j.UploadTTL)
	return Created{
		Job:            jobOf(row),
		UploadURL:      j.link("/uploads/catalog-imports/"+row.ID.String(), j.Links.Sign(uploadPurpose, row.ID.String(), deadline)),
		UploadDeadline: deadline,
	}
}

// Get returns a job of the seller.
func (j Jobs) Get(ctx context.Context, sellerID, id uuid.UUID) (Job, error) {
	row, err := j.Store.GetSellerCSVImport(ctx, dbgen.GetSellerCSVImportParams{SellerID: sellerID, ID: id})
	if db.IsNotFound(err) {
		return Job{}, ErrNotFound
	}
	if err != nil {
		return Job{}, err
	}
	return jobOf(row), nil
}

// ErrorsURL is a signed link to the job's error report, valid for
// ErrorsLinkTTL from now, or "" while there is none.
func (j Jobs) ErrorsURL(job Job, now time.Time) string {
	if job.ErrorsPath == "" {
		return ""
	}
	token := j.Links.Sign(errorsPurpose, job.ID.String(), now.Add(j.ErrorsLinkTTL))
	return j.link("/downloads/catalog-imports/"+job.ID.String()+"/errors.csv", token)
}

// VerifyErrorsToken checks a link to a job's error report.
func (j Jobs) VerifyErrorsToken(id uuid.UUID, token string) error {
	return j.Links.Verify(errorsPurpose, id.String(), token)
}

func (j Jobs) link(path, token string) string {
	return strings.TrimRight(j.PublicURL, "/") + path + "?token=" + url.QueryEscape(token)
}

// Job reads a job whoever its seller.
func (j Jobs) Job(ctx context.Context, id uuid.UUID) (Job, error) { return readJob(ctx, j.Store, id) }

// readJob reads job id from store.
func readJob(ctx context.Context, store *db.Store, id uuid.UUID) (Job, error) {
	row, err := store.GetCSVImport(ctx, id)
	if db.IsNotFound(err) {
		return Job{}, ErrNotFound
	}
	if err != nil {
		return Job{}, err
	}
	return jobOf(row), nil
}

// SetStatus moves a job to a status (with the reason it failed, if so);
// a finished job keeps its status, which the returned job shows.
func (j Jobs) SetStatus(ctx context.Context, id uuid.UUID, s Status, reason string) (Job, error) {
	row, err := j.Store.SetCSVImportStatus(ctx, dbgen.SetCSVImportStatusParams{ID: id, Status: string(s), Error: reason})
	if db.IsNotFound(err) {
		return j.Job(ctx, id)
	}
	if err != nil {
		return Job{}, err
	}
	return jobOf(row), nil
}

// UploadState is what an expired upload link left behind.
type UploadState int

// The upload states ExpireUpload finds.
const (
	// UploadExpired: no file came; the job has failed.
	UploadExpired UploadState = iota
	// UploadUnderway: a file is being received.
	UploadUnderway
	// UploadReceived: the file is stored; the job goes on.
	UploadReceived
)

// ExpireUpload fails a pending job whose upload link expired unused (with
// force, also one whose upload started and never finished) and says what
// it found.
func (j Jobs) ExpireUpload(ctx context.Context, id uuid.UUID, force bool) (UploadState, error) {
	_, err := j.Store.ExpireCSVImport(ctx, dbgen.ExpireCSVImportParams{
		ID: id, Force: force, Error: "no file was uploaded before the upload link expired",
	})
	if err == nil {
		return UploadExpired, nil
	}
	if !db.IsNotFound(err) {
		return 0, err
	}
	row, err := j.Store.GetCSVImport(ctx, id)
	switch {
	case err != nil:
		return 0, err
	case row.UploadedAt != nil:
		return UploadReceived, nil
	case Status(row.Status) == Pending:
		return UploadUnderway, nil
	}
	// Finished some other way (cancelled).
	return UploadExpired, nil
}
