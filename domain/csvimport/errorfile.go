package csvimport

import (
	"context"
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"gocloud.dev/blob"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/catalog"
)

// errorPage is how many failed rows one query reads while the report is
// written, so a file of failures never sits in memory.
const errorPage = 5000

// ErrorReport writes and serves the CSV of a job's failed rows.
type ErrorReport struct {
	Store  *db.Store
	Bucket *blob.Bucket
}

// ErrorColumns is the header of an error report.
var ErrorColumns = []string{"line", "reference", "column", "reason"}

// maxReportedReference bounds the reference a failed row is reported
// under, in characters: a cell of a failed row may be megabytes long.
const maxReportedReference = catalog.MaxTextLength

// reportedReference is a failed row's reference cell as the report can
// hold it. The cell failed its row for what it holds, which may be text
// PostgreSQL cannot store: invalid UTF-8 and NUL characters become U+FFFD,
// and a long cell is cut, ending with "…".
func reportedReference(cell string) string {
	s := strings.ReplaceAll(strings.ToValidUTF8(cell, "\uFFFD"), "\x00", "\uFFFD")
	if utf8.RuneCountInString(s) <= maxReportedReference {
		return s
	}
	return string([]rune(s)[:maxReportedReference-1]) + "…"
}

// Write puts the job's failed rows, in file order, into the bucket and
// records where; a job without failed rows gets no report. Writing again
// replaces the report, so a retried call is harmless.
func (e ErrorReport) Write(ctx context.Context, id uuid.UUID) error {
	row, err := e.Store.GetCSVImport(ctx, id)
	if err != nil {
		return err
	}
	if row.Failed == 0 {
		return nil
	}
	path := errorsPath(id)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := e.Bucket.NewWriter(ctx, path, &blob.WriterOptions{ContentType: "text/csv"})
	if err != nil {
		return err
	}
	if err := writeFailures(ctx, e.Store, id, w); err != nil {
		cancel()
		_ = w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return e.Store.SetCSVImportErrorsPath(ctx, dbgen.SetCSVImportErrorsPathParams{ID: id, ErrorsPath: path})
}

func writeFailures(ctx context.Context, store *db.Store, id uuid.UUID, out io.Writer) error {
	w := csv.NewWriter(out)
	if err := w.Write(ErrorColumns); err != nil {
		return err
	}
	after := int64(0)
	for {
		page, err := store.CSVImportErrorsAfter(ctx, dbgen.CSVImportErrorsAfterParams{ImportID: id, Line: after, Limit: errorPage})
		if err != nil {
			return err
		}
		for _, f := range page {
			if err := w.Write([]string{strconv.FormatInt(f.Line, 10), f.Reference, f.ColumnName, f.Reason}); err != nil {
				return err
			}
			after = f.Line
		}
		if len(page) < errorPage {
			break
		}
	}
	w.Flush()
	return w.Error()
}

// Open reads a job's error report.
func (e ErrorReport) Open(ctx context.Context, job Job) (*blob.Reader, error) {
	if job.ErrorsPath == "" {
		return nil, ErrNotFound
	}
	return e.Bucket.NewReader(ctx, job.ErrorsPath, nil)
}
