package console

import (
	"bytes"
	"errors"
	"io"
	"net/url"
	"path"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/services"
)

// catalogUploadPath is the portal's catalog upload form.
const catalogUploadPath = Base + "/catalog/imports"

// catalogRoutes are the portal's catalog uploads, for the seller's admins:
// the form, the import it starts, its progress and its error report.
func catalogRoutes() []route {
	admins := []console.Role{console.Admin}
	return []route{
		{method: fiber.MethodGet, path: "/catalog/imports", access: byRole, sellers: admins, nav: "nav.catalog_uploads", handle: (*server).catalogUploadForm},
		{method: fiber.MethodPost, path: "/catalog/imports", access: byRole, sellers: admins, handle: (*server).uploadCatalog},
		{method: fiber.MethodGet, path: "/catalog/imports/:import", access: byRole, sellers: admins, handle: (*server).catalogImport},
		{method: fiber.MethodGet, path: "/catalog/imports/:import/progress", access: byRole, sellers: admins, handle: (*server).catalogImportProgress},
		{method: fiber.MethodGet, path: "/catalog/imports/:import/errors.csv", access: byRole, sellers: admins, handle: (*server).catalogImportErrors},
	}
}

// uploadView is the upload page's own data: the seller's imports, newest
// first.
type uploadView struct {
	Imports []importLine
	// Older is the address of the next, older page; "" on the last.
	Older string
}

// importLine is an import as the upload page lists it.
type importLine struct {
	ID, Filename, Status, Created, CreatedISO string
	Succeeded, Failed                         int64
}

// catalogUploadForm shows the form to upload a CSV file and the seller's
// imports, a page before the import the before parameter names.
func (s *server) catalogUploadForm(c *fiber.Ctx) error {
	return s.renderUpload(c, fiber.StatusOK, s.view(c, "catalog.upload_title"))
}

// renderUpload writes the upload page with a status, after a refused
// upload too.
func (s *server) renderUpload(c *fiber.Ctx, status int, v view) error {
	beforeAt, beforeID, ok := parseCursor(c.Query("before"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	jobs, err := s.Service.CatalogImportList(c.UserContext(), sellerOf(c), beforeAt, beforeID)
	if err != nil {
		return s.failed(c, err)
	}
	data := uploadView{}
	for _, j := range jobs {
		data.Imports = append(data.Imports, importLine{ID: j.ID.String(), Filename: j.Filename, Status: v.T("catalog.status." + string(j.Status)),
			Created: formatTime(j.CreatedAt), CreatedISO: isoTime(j.CreatedAt), Succeeded: j.Succeeded, Failed: j.Failed})
	}
	if len(jobs) == services.ImportsPageSize {
		last := jobs[len(jobs)-1]
		data.Older = catalogUploadPath + "?before=" + url.QueryEscape(cursor(last.CreatedAt, last.ID))
	}
	v.Data = data
	return s.pages.render(c, status, "catalog_upload.html", v)
}

// uploadCatalog starts an import of the uploaded file and goes to its
// page; a missing file, a refused one or too many imports in progress
// show the form again saying why.
func (s *server) uploadCatalog(c *fiber.Ctx) error {
	who, sellerID := s.sellerActor(c)
	var (
		name string
		file []byte
	)
	if header, err := c.FormFile("file"); err == nil {
		f, err := header.Open()
		if err != nil {
			return s.failed(c, err)
		}
		file, err = io.ReadAll(f)
		_ = f.Close()
		if err != nil {
			return s.failed(c, err)
		}
		name = path.Base(header.Filename)
	}
	job, err := s.Service.UploadCatalog(c.UserContext(), who, sellerID, name, file)
	if err == nil {
		return c.Redirect(catalogUploadPath+"/"+job.ID.String(), fiber.StatusSeeOther)
	}
	v := s.view(c, "catalog.upload_title")
	var refused *csvimport.UploadError
	switch {
	case errors.Is(err, services.ErrNoFile):
		v.Problem = v.T("catalog.no_file")
	case errors.Is(err, csvimport.ErrTooManyImports):
		v.Problem = v.T("catalog.too_many")
	case errors.As(err, &refused):
		v.Problem = v.Tf("catalog.refused", refused.Message)
	default:
		return s.failed(c, err)
	}
	c.Set("HX-Replace-Url", catalogUploadPath)
	return s.renderUpload(c, fiber.StatusUnprocessableEntity, v)
}

// importView is an import as its page and its progress fragment show it.
type importView struct {
	ID, Filename, Status, StatusCode, Error string
	// Processed counts the rows read of Total, 0 when the file's size in
	// rows is not known (uploaded through the API).
	Processed, Total, Succeeded, Failed int64
	// BarValue of BarMax fill the progress bar; BarMax 0 makes it
	// indeterminate.
	BarValue, BarMax int64
	// Done stops the polling; ErrorsPath links the error report.
	Done       bool
	ErrorsPath string
}

// finished are the statuses an import ends in.
var finished = []csvimport.Status{csvimport.Completed, csvimport.Failed, csvimport.Cancelled}

// importViewOf reads a seller's import for its page; ok is false when
// the seller has no such import.
func (s *server) importViewOf(c *fiber.Ctx, v view) (importView, bool, error) {
	id, ok := idParam(c, "import")
	if !ok {
		return importView{}, false, nil
	}
	job, err := s.Service.CatalogImport(c.UserContext(), sellerOf(c), id)
	if errors.Is(err, csvimport.ErrNotFound) {
		return importView{}, false, nil
	}
	if err != nil {
		return importView{}, false, err
	}
	out := importView{
		ID: job.ID.String(), Filename: job.Filename, Status: v.T("catalog.status." + string(job.Status)), StatusCode: string(job.Status),
		Error: job.Error, Processed: job.Processed, Succeeded: job.Succeeded, Failed: job.Failed,
	}
	for _, f := range finished {
		out.Done = out.Done || job.Status == f
	}
	if job.FileRows != nil {
		out.Total = max(*job.FileRows, job.Processed)
	}
	out.BarValue, out.BarMax = out.Processed, out.Total
	if out.Done {
		// A finished bar is full, whatever the file's size was.
		out.BarValue, out.BarMax = 1, 1
	}
	if job.ErrorsPath != "" {
		out.ErrorsPath = catalogUploadPath + "/" + out.ID + "/errors.csv"
	}
	return out, true, nil
}

// catalogImport is an import's page: its progress, polled while it runs,
// then its result and error report.
func (s *server) catalogImport(c *fiber.Ctx) error {
	return s.showImport(c, func(v view) error { return s.pages.render(c, fiber.StatusOK, "catalog_import.html", v) })
}

// catalogImportProgress is the progress part of an import's page, which
// the page polls while the import runs.
func (s *server) catalogImportProgress(c *fiber.Ctx) error {
	return s.showImport(c, func(v view) error { return s.pages.fragment(c, "catalog_import.html", "progress", v) })
}

// showImport reads the seller's import the path names and shows it with
// show; another seller's, or none, is answered 404.
func (s *server) showImport(c *fiber.Ctx, show func(view) error) error {
	v := s.view(c, "catalog.import_title")
	data, ok, err := s.importViewOf(c, v)
	switch {
	case err != nil:
		return s.failed(c, err)
	case !ok:
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	v.Data = data
	return show(v)
}

// catalogImportErrors downloads the error report of a seller's import.
func (s *server) catalogImportErrors(c *fiber.Ctx) error {
	id, ok := idParam(c, "import")
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	report, err := s.Service.ImportErrors(c.UserContext(), sellerOf(c), id)
	if errors.Is(err, csvimport.ErrNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Attachment("errors-" + id.String() + ".csv")
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	// Streamed: fasthttp closes the report once it is sent.
	return c.SendStream(report)
}

// fragment writes one named template of a page, without the layout, for
// htmx to swap into the page.
func (p *pages) fragment(c *fiber.Ctx, page, name string, v view) error {
	var out bytes.Buffer
	if err := p.sets[page].ExecuteTemplate(&out, name, v); err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Status(fiber.StatusOK).Send(out.Bytes())
}
