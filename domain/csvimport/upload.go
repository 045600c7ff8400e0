package csvimport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"gocloud.dev/blob"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/foundation/links"
)

// Uploads receives the files of pending jobs into the bucket.
type Uploads struct {
	Store  *db.Store
	Bucket *blob.Bucket
	Links  *links.Signer
}

// Upload is one PUT of a job's file.
type Upload struct {
	ID    uuid.UUID
	Token string
	// ContentType is the Content-Type header.
	ContentType string
	// LengthRange is the x-storage-content-length-range (or
	// x-goog-content-length-range) header.
	LengthRange string
	// ContentLength is the declared body size, -1 when the body is chunked.
	ContentLength int64
	Body          io.Reader
}

// UploadError is an upload refused before anything was stored, with the
// HTTP status that says why.
type UploadError struct {
	Status  int
	Message string
}

// Error is the refusal's message.
func (e *UploadError) Error() string { return e.Message }

func refuse(status int, format string, args ...any) error {
	return &UploadError{Status: status, Message: fmt.Sprintf(format, args...)}
}

// Receive checks an upload and streams its body into the bucket, never
// holding more than a buffer of it. The link works once: an upload that
// could not be stored gives it back.
func (u Uploads) Receive(ctx context.Context, up Upload) (Job, error) {
	switch err := u.Links.Verify(uploadPurpose, up.ID.String(), up.Token); {
	case errors.Is(err, links.ErrExpired):
		return Job{}, refuse(http.StatusForbidden, "the upload link has expired: create a new import")
	case err != nil:
		return Job{}, refuse(http.StatusForbidden, "the upload link is not valid")
	}
	if mt, _, err := mime.ParseMediaType(up.ContentType); err != nil || mt != "text/csv" {
		return Job{}, refuse(http.StatusBadRequest, "Content-Type must be text/csv, got %q", up.ContentType)
	}
	limit, err := lengthRange(up.LengthRange)
	if err != nil {
		return Job{}, err
	}
	if up.ContentLength > limit {
		return Job{}, refuse(http.StatusRequestEntityTooLarge, "the file is %d bytes, at most %d are accepted", up.ContentLength, limit)
	}
	row, err := u.Store.ClaimCSVUpload(ctx, up.ID)
	if db.IsNotFound(err) {
		return Job{}, u.unclaimable(ctx, up.ID)
	}
	if err != nil {
		return Job{}, err
	}
	if err := u.store(ctx, row.ObjectPath, up.Body, limit); err != nil {
		// A fresh context: the request's may be what was cancelled.
		if relErr := u.Store.ReleaseCSVUpload(context.WithoutCancel(ctx), up.ID); relErr != nil {
			err = errors.Join(err, relErr)
		}
		return Job{}, err
	}
	if err := u.Store.FinishCSVUpload(ctx, up.ID); err != nil {
		return Job{}, err
	}
	return jobOf(row), nil
}

// unclaimable says why a job's upload cannot start.
func (u Uploads) unclaimable(ctx context.Context, id uuid.UUID) error {
	row, err := u.Store.GetCSVImport(ctx, id)
	if db.IsNotFound(err) {
		return refuse(http.StatusNotFound, "no CSV import job with id %s", id)
	}
	if err != nil {
		return err
	}
	if row.UploadStartedAt != nil {
		return refuse(http.StatusForbidden, "the upload link has already been used")
	}
	return refuse(http.StatusConflict, "the import is %s and takes no file: create a new import", row.Status)
}

// store streams body into the bucket; anything beyond limit aborts the
// write, so no partial object is left behind.
func (u Uploads) store(ctx context.Context, path string, body io.Reader, limit int64) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := u.Bucket.NewWriter(ctx, path, &blob.WriterOptions{ContentType: "text/csv"})
	if err != nil {
		return err
	}
	n, err := io.Copy(w, io.LimitReader(body, limit+1))
	switch {
	case err != nil:
		cancel()
		_ = w.Close()
		return refuse(http.StatusBadRequest, "the upload was interrupted after %d bytes: %v", n, err)
	case n > limit:
		cancel()
		_ = w.Close()
		return refuse(http.StatusRequestEntityTooLarge, "the file is larger than %d bytes", limit)
	}
	return w.Close()
}

// lengthRange reads the content-length-range header ("min,max"), which
// must be present and allow no more than MaxFileSize; it returns max.
func lengthRange(h string) (int64, error) {
	if h == "" {
		return 0, refuse(http.StatusBadRequest, "the x-storage-content-length-range header is required, as in %q", ContentLengthRange)
	}
	lo, hi, ok := strings.Cut(h, ",")
	minimum, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
	maximum, err2 := strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
	if !ok || err1 != nil || err2 != nil || minimum < 0 || minimum > maximum {
		return 0, refuse(http.StatusBadRequest, "the content-length-range header must be two byte counts \"min,max\", as in %q, got %q", ContentLengthRange, h)
	}
	if maximum > MaxFileSize {
		return 0, refuse(http.StatusBadRequest, "the content-length-range header allows %d bytes, at most %d may be uploaded", maximum, MaxFileSize)
	}
	return maximum, nil
}
