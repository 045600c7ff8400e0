package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/workflows/catalogimport"
	"github.com/tenurehq/tenure/workflows/entity"
)

// uploadReadTimeout is how long an upload's body may take: 250 MB at about
// 4 Mbit/s. Other requests keep the server's read timeout.
const uploadReadTimeout = 10 * time.Minute

// Paths of the signed links CSV import jobs hand out. They are outside
// /v1: the link's token, not a bearer token, authorises them, like a
// pre-signed storage URL.
const (
	uploadPath = "/uploads/catalog-imports/:id"
	errorsPath = "/downloads/catalog-imports/:id/errors.csv"
)

// importFiles serves the upload links and the error report links.
type importFiles struct {
	jobs     csvimport.Jobs
	uploads  csvimport.Uploads
	reports  csvimport.ErrorReport
	temporal client.Client
}

// upload receives a job's file, streamed from the request into storage,
// and tells the job's workflow. A refused upload may leave the body
// unread, so its connection is closed after the answer: the rest of the
// file must not be read as the next request.
func (h importFiles) upload(c *fiber.Ctx) (err error) {
	defer func() {
		if err != nil {
			c.Context().SetConnectionClose()
		}
	}()
	id, err := recordid.Parse(c.Params("id"))
	if err != nil {
		return Forbidden("the upload link is not valid")
	}
	if err := c.Context().Conn().SetReadDeadline(time.Now().Add(uploadReadTimeout)); err != nil {
		return err
	}
	rangeHeader := c.Get("x-storage-content-length-range")
	if rangeHeader == "" {
		rangeHeader = c.Get("x-goog-content-length-range")
	}
	job, err := h.uploads.Receive(c.UserContext(), csvimport.Upload{
		ID: id, Token: c.Query("token"), ContentType: c.Get(fiber.HeaderContentType), LengthRange: rangeHeader,
		ContentLength: int64(c.Request().Header.ContentLength()), Body: c.Context().RequestBodyStream(),
	})
	var refused *csvimport.UploadError
	if errors.As(err, &refused) {
		return uploadRefusal(refused)
	}
	if err != nil {
		return err
	}
	err = h.temporal.SignalWorkflow(c.UserContext(), catalogimport.WorkflowID(job.ID), "", catalogimport.UploadedSignal, nil)
	if entity.Ended(err) {
		return Conflict("the import ended while the file was being received: create a new import")
	}
	if err != nil {
		return err
	}
	return c.SendStatus(http.StatusOK)
}

// uploadRefusal is the API error of a refused upload.
func uploadRefusal(r *csvimport.UploadError) error {
	switch r.Status {
	case http.StatusForbidden:
		return &Error{Status: r.Status, Name: "Forbidden", Message: r.Message}
	case http.StatusNotFound:
		return NotFound("%s", r.Message)
	case http.StatusConflict:
		return Conflict("%s", r.Message)
	case http.StatusRequestEntityTooLarge:
		return newError(r.Status, "request_too_large", "%s", r.Message)
	}
	return BadRequest("%s", r.Message)
}

// errorReport serves a job's error report to a holder of its link.
func (h importFiles) errorReport(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("id"))
	if err != nil || h.jobs.VerifyErrorsToken(id, c.Query("token")) != nil {
		return Forbidden("the link to the error report is not valid or has expired: get a new one from the import")
	}
	job, err := h.jobs.Job(c.UserContext(), id)
	if err != nil {
		return err
	}
	r, err := h.reports.Open(c.UserContext(), job)
	if errors.Is(err, csvimport.ErrNotFound) {
		return NotFound("the import has no error report")
	}
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="errors.csv"`)
	// fasthttp closes the reader once the body is sent.
	return c.SendStream(r, int(r.Size()))
}

// newImportFiles builds the CSV import job services over the blob store.
func newImportFiles(d Deps) (importFiles, csvimport.Jobs, error) {
	bucket, err := csvimport.OpenBucket(context.Background(), d.Config)
	if err != nil {
		return importFiles{}, csvimport.Jobs{}, err
	}
	signer := links.NewSigner(d.Config.Links.SigningKey)
	im := d.Config.Catalog.Imports
	jobs := csvimport.Jobs{
		Store: d.Store, Links: signer, PublicURL: d.Config.HTTP.PublicURL,
		UploadTTL: im.UploadTTL, ErrorsLinkTTL: im.ErrorsLinkTTL, MaxActive: im.MaxActive,
	}
	return importFiles{
		jobs:     jobs,
		uploads:  csvimport.Uploads{Store: d.Store, Bucket: bucket, Links: signer},
		reports:  csvimport.ErrorReport{Store: d.Store, Bucket: bucket},
		temporal: d.Temporal,
	}, jobs, nil
}
