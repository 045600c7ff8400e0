package seller

import (
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// uploadReadTimeout is how long an upload's body may take: 250 MB at about
// 4 Mbit/s. Other requests keep the server's read timeout.
const uploadReadTimeout = 10 * time.Minute

// Paths of the signed links CSV import jobs hand out. They are outside
// /v1: the link's token, not a bearer token, authorises them, like a
// pre-signed storage URL.
const (
	UploadPath = "/uploads/catalog-imports/:id"
	ErrorsPath = "/downloads/catalog-imports/:id/errors.csv"
)

// ImportFiles serves the upload links and the error report links through
// the catalog import service.
type ImportFiles struct {
	imports *services.CatalogImports
}

// NewImportFiles serves the links of the CSV import jobs.
func NewImportFiles(imports *services.CatalogImports) ImportFiles {
	return ImportFiles{imports: imports}
}

// Upload receives a job's file, streamed from the request into storage,
// and tells the job's workflow. A refused upload may leave the body
// unread, so its connection is closed after the answer: the rest of the
// file must not be read as the next request.
func (h ImportFiles) Upload(c *fiber.Ctx) (err error) {
	defer func() {
		if err != nil {
			c.Context().SetConnectionClose()
		}
	}()
	id, err := recordid.Parse(c.Params("id"))
	if err != nil {
		return apierror.Forbidden("the upload link is not valid")
	}
	if err := c.Context().Conn().SetReadDeadline(time.Now().Add(uploadReadTimeout)); err != nil {
		return err
	}
	rangeHeader := c.Get("x-storage-content-length-range")
	if rangeHeader == "" {
		rangeHeader = c.Get("x-goog-content-length-range")
	}
	err = h.imports.Receive(c.UserContext(), csvimport.Upload{
		ID: id, Token: c.Query("token"), ContentType: c.Get(fiber.HeaderContentType), LengthRange: rangeHeader,
		ContentLength: int64(c.Request().Header.ContentLength()), Body: c.Context().RequestBodyStream(),
	})
	var refused *csvimport.UploadError
	if errors.As(err, &refused) {
		return uploadRefusal(refused)
	}
	if errors.Is(err, services.ErrImportEnded) {
		return apierror.Conflict("the import ended while the file was being received: create a new import")
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
		return &apierror.Error{Status: r.Status, Name: "Forbidden", Message: r.Message}
	case http.StatusNotFound:
		return apierror.NotFound("%s", r.Message)
	case http.StatusConflict:
		return apierror.Conflict("%s", r.Message)
	case http.StatusRequestEntityTooLarge:
		return apierror.New(r.Status, "request_too_large", "%s", r.Message)
	}
	return apierror.BadRequest("%s", r.Message)
}

// ErrorReport serves a job's error report to a holder of its link.
func (h ImportFiles) ErrorReport(c *fiber.Ctx) error {
	refused := apierror.Forbidden("the link to the error report is not valid or has expired: get a new one from the import")
	id, err := recordid.Parse(c.Params("id"))
	if err != nil {
		return refused
	}
	r, err := h.imports.OpenErrorReport(c.UserContext(), id, c.Query("token"))
	switch {
	case errors.Is(err, services.ErrLinkNotValid):
		return refused
	case errors.Is(err, csvimport.ErrNotFound):
		return apierror.NotFound("the import has no error report")
	case err != nil:
		return err
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="errors.csv"`)
	// fasthttp closes the reader once the body is sent.
	return c.SendStream(r, int(r.Size()))
}
