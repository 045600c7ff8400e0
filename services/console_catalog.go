package services

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/csvimport"
)

// ImportTarget names a CSV import as the audit log's target.
func ImportTarget(importID uuid.UUID) string { return "catalog_import " + importID.String() }

// ErrNoFile refuses a catalog upload without a file, or with an empty one.
var ErrNoFile = errors.New("choose a CSV file with a header line")

// UploadCatalog imports a CSV file a seller's admin uploaded in the
// portal: the same job as POST /v1/catalog/imports creates, its file
// received as through the job's upload link, so the same workflow imports
// it. The file's records are counted first and kept with the job, for the
// portal's progress bar. A seller with too many imports in progress gets
// csvimport.ErrTooManyImports; a refused file a *csvimport.UploadError.
func (c *Console) UploadCatalog(ctx context.Context, who console.Actor, sellerID uuid.UUID, filename string, file []byte) (csvimport.Job, error) {
	job, err := c.uploadCatalog(ctx, sellerID, filename, file)
	target := ""
	if job.ID != uuid.Nil {
		target = ImportTarget(job.ID)
	}
	var upload *csvimport.UploadError
	refused := errors.Is(err, ErrNoFile) || errors.Is(err, csvimport.ErrTooManyImports) || errors.As(err, &upload)
	return job, c.audited(ctx, who, "catalog.import", target, filename, outcomeOf(err, refused), err)
}

func (c *Console) uploadCatalog(ctx context.Context, sellerID uuid.UUID, filename string, file []byte) (csvimport.Job, error) {
	records := countRecords(file)
	if records < 1 {
		return csvimport.Job{}, ErrNoFile
	}
	created, err := c.CatalogImports.Create(ctx, sellerID, filename)
	if err != nil {
		return csvimport.Job{}, err
	}
	// The header is a record, not a row of the catalog.
	if err := c.CatalogImports.Jobs.Store.SetCSVImportFileRows(ctx, dbgen.SetCSVImportFileRowsParams{
		ID: created.Job.ID, SellerID: sellerID, FileRows: new(records - 1),
	}); err != nil {
		return created.Job, err
	}
	link, err := url.Parse(created.UploadURL)
	if err != nil {
		return created.Job, err
	}
	err = c.CatalogImports.Receive(ctx, csvimport.Upload{
		ID: created.Job.ID, Token: link.Query().Get("token"), ContentType: "text/csv",
		LengthRange: csvimport.ContentLengthRange, ContentLength: int64(len(file)), Body: bytes.NewReader(file),
	})
	return created.Job, err
}

// countRecords counts a CSV file's records as the import reads them; a
// record that is not valid CSV counts too, as the import reports it.
func countRecords(file []byte) int64 {
	r := csv.NewReader(bytes.NewReader(file))
	r.ReuseRecord, r.FieldsPerRecord = true, -1
	var n int64
	for {
		_, err := r.Read()
		if errors.Is(err, io.EOF) {
			return n
		}
		n++
	}
}

// CatalogImport is a seller's import and the records of its file the
// portal counted (nil for a file uploaded through the API).
type CatalogImport struct {
	csvimport.Job
	FileRows *int64
}

// CatalogImport reads a seller's import; another seller's, or none, is
// csvimport.ErrNotFound.
func (c *Console) CatalogImport(ctx context.Context, sellerID, importID uuid.UUID) (CatalogImport, error) {
	job, err := c.CatalogImports.Get(ctx, sellerID, importID)
	if err != nil {
		return CatalogImport{}, err
	}
	row, err := c.CatalogImports.Jobs.Store.GetSellerCSVImport(ctx, dbgen.GetSellerCSVImportParams{SellerID: sellerID, ID: importID})
	if err != nil {
		return CatalogImport{}, err
	}
	return CatalogImport{Job: job, FileRows: row.FileRows}, nil
}

// ImportErrors opens the error report of a seller's import; one without a
// report, or another seller's, is csvimport.ErrNotFound. The caller closes
// it.
func (c *Console) ImportErrors(ctx context.Context, sellerID, importID uuid.UUID) (io.ReadCloser, error) {
	job, err := c.CatalogImports.Get(ctx, sellerID, importID)
	if err != nil {
		return nil, err
	}
	return c.CatalogImports.Reports.Open(ctx, job)
}

// ImportsPageSize is how many imports a page of the portal's list shows.
const ImportsPageSize = 20

// CatalogImportList is a page of a seller's imports, newest first, before
// the import (beforeAt, beforeID); the zero time starts at the newest.
func (c *Console) CatalogImportList(ctx context.Context, sellerID uuid.UUID, beforeAt time.Time, beforeID uuid.UUID) ([]csvimport.Job, error) {
	if beforeAt.IsZero() {
		beforeAt, beforeID = farFuture, uuid.Max
	}
	return c.CatalogImports.Jobs.ListBefore(ctx, sellerID, beforeAt, beforeID, ImportsPageSize)
}
