package csvimport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/catalog/catalogcsv"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// MaxRecordSize bounds one CSV record, so memory stays flat whatever the
// file holds: reading stops at a longer record (a runaway quoted field)
// and the rest of the file is reported as not read.
const MaxRecordSize = 16 << 20

// Processor streams a job's file into the catalog, chunk by chunk.
type Processor struct {
	Store     *db.Store
	Bucket    *blob.Bucket
	Importer  catalog.Importer
	ChunkRows int
	// Metrics counts the rows of each committed chunk; nil counts nothing.
	Metrics *telemetry.Metrics
}

// FileError is a file refused as a whole before any row is read: the job
// fails with its reason.
type FileError struct{ Reason string }

// Error is the reason the file was refused.
func (e *FileError) Error() string { return e.Reason }

// Process reads the job's file and stores its rows, committing the job's
// counters with every chunk; a retried call skips the rows committed
// chunks have counted. beat is called after every chunk, and a cancelled
// ctx stops it between chunks (or rolls the chunks in flight back).
func (p Processor) Process(ctx context.Context, id uuid.UUID, beat func(Job)) (Job, error) {
	job, err := readJob(ctx, p.Store, id)
	if err != nil || job.Status != Queued && job.Status != Running {
		return job, err
	}
	release, err := p.lockSellerImports(ctx, job, beat)
	if err != nil {
		return Job{}, err
	}
	defer release()
	// Another run may have stored rows while this one waited.
	if job, err = readJob(ctx, p.Store, id); err != nil || job.Status != Queued && job.Status != Running {
		return job, err
	}
	seller, err := p.Store.GetSeller(ctx, job.SellerID)
	if err != nil {
		return Job{}, err
	}
	r, err := p.Bucket.NewReader(ctx, job.ObjectPath, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return Job{}, &FileError{Reason: "the uploaded file is missing from storage"}
	}
	if err != nil {
		return Job{}, err
	}
	defer r.Close()

	f, err := openFile(r)
	if err != nil {
		return Job{}, err
	}
	if job.Status == Queued {
		if _, err := p.Store.SetCSVImportStatus(ctx, dbgen.SetCSVImportStatusParams{ID: id, Status: string(Running)}); err != nil {
			return Job{}, err
		}
	}
	// Two chunks are stored at a time, each in its own transaction: the
	// later one commits after the earlier (see storing). The next chunk
	// is read once the earlier has committed, while the later is still
	// being stored, so no more than two are held in memory at a time.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	// want asks the reader for a chunk; never more than one is asked for.
	want, chunks := make(chan struct{}, 1), make(chan chunk)
	go f.chunks(ctx, want, chunks, job, seller.Currency, p.ChunkRows, beat)
	var ahead *storing
	processed := job.Processed
	for {
		want <- struct{}{}
		c, ok := <-chunks
		if !ok {
			break
		}
		if c.err != nil {
			stop()
			ahead.wait()
			return Job{}, c.err
		}
		records := c.records
		next := p.store(ctx, job, processed, seller.Currency, &c, ahead)
		processed += records
		if ahead != nil {
			if job, err = ahead.commit(beat); err != nil {
				stop()
				next.wait()
				return Job{}, err
			}
		}
		ahead = next
	}
	if ahead != nil {
		if job, err = ahead.commit(beat); err != nil {
			return Job{}, err
		}
	}
	// A closed channel after a cancel is not the end of the file.
	if err := ctx.Err(); err != nil {
		return Job{}, err
	}
	return job, nil
}

// chunk is a run of records ready to store: the valid rows and the failed
// ones. A chunk with err ends the reading.
type chunk struct {
	records   int64
	revisions []catalog.Revision
	failures  []dbgen.CopyCSVImportErrorsParams
	err       error
}

// chunks reads the records after the ones the job has counted and sends
// them in chunks of size, one for every request on want, until the end of
// the file, an error or ctx's end.
func (f *file) chunks(ctx context.Context, want <-chan struct{}, out chan<- chunk, job Job, currency string, size int, beat func(Job)) {
	defer close(out)
	for skip := job.Processed; skip > 0; skip-- {
		// Skipping a large part of a file takes a while: keep telling
		// the workflow that this run is alive.
		if (skip-1)%int64(size) == 0 {
			beat(job)
		}
		_, ok, err := f.next()
		if err != nil {
			send(ctx, out, chunk{err: err})
			return
		}
		if !ok {
			return
		}
	}
	for {
		select {
		case <-want:
		case <-ctx.Done():
			return
		}
		var c chunk
		for len(c.revisions)+len(c.failures) < size {
			rec, ok, err := f.next()
			if err != nil {
				c = chunk{err: err}
				break
			}
			if !ok {
				break
			}
			c.add(f, rec, job.ID, currency)
		}
		if c.err == nil && c.records == 0 || !send(ctx, out, c) || c.err != nil {
			return
		}
	}
}

// send sends c unless ctx ends first, and says whether it did.
func send(ctx context.Context, out chan<- chunk, c chunk) bool {
	select {
	case out <- c:
		return true
	case <-ctx.Done():
		return false
	}
}

// file is a CSV file being read after its header.
type file struct {
	limit  *recordLimit
	csv    *csv.Reader
	header catalogcsv.Header
	// line is where the last record read started (the header's is 1).
	line int
	// stopped is set once a record too large to read ended the reading.
	stopped bool
}

// record is what reading one record gave: cells, or why there are none.
type record struct {
	line    int
	cells   []string
	problem *catalogcsv.Problem
}

// openFile checks that the file is CSV text with a valid header.
func openFile(r io.Reader) (*file, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(512)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	if len(bytes.TrimSpace(bytes.TrimPrefix(head, []byte("\ufeff")))) == 0 {
		return nil, &FileError{Reason: "the file is empty: the first line must be the header"}
	}
	if kind := http.DetectContentType(head); !strings.HasPrefix(kind, "text/") || bytes.IndexByte(head, 0) >= 0 || !validUTF8Prefix(head) {
		return nil, &FileError{Reason: fmt.Sprintf("the file is not CSV text (its content looks like %s)", strings.TrimSuffix(kind, "; charset=utf-8"))}
	}
	limit := &recordLimit{r: br, max: MaxRecordSize}
	c := csv.NewReader(limit)
	c.ReuseRecord = true
	c.FieldsPerRecord = -1
	cells, err := c.Read()
	if err != nil {
		return nil, &FileError{Reason: fmt.Sprintf("the header line is not valid CSV: %v", err)}
	}
	header, err := catalogcsv.ParseHeader(cells)
	if err != nil {
		return nil, &FileError{Reason: err.Error()}
	}
	return &file{limit: limit, csv: c, header: header, line: 1}, nil
}

// validUTF8Prefix reports whether b is UTF-8, allowing a rune cut at its end.
func validUTF8Prefix(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return len(b) < utf8.UTFMax && !utf8.FullRune(b)
		}
		b = b[size:]
	}
	return true
}

// next reads the next record; ok is false at the end of the file. A record
// that is not valid CSV comes back with a problem and reading goes on.
func (f *file) next() (record, bool, error) {
	if f.stopped {
		return record{}, false, nil
	}
	f.limit.reset()
	cells, err := f.csv.Read()
	var parseErr *csv.ParseError
	switch {
	case err == nil:
		f.line, _ = f.csv.FieldPos(0)
		return record{line: f.line, cells: cells}, true, nil
	case errors.Is(err, io.EOF):
		return record{}, false, nil
	case errors.Is(err, errRecordTooLarge):
		f.stopped = true
		// The record starts after the last one read, not earlier.
		return record{line: f.line + 1, problem: &catalogcsv.Problem{
			Reason: fmt.Sprintf("the row is larger than %d MB; the file was not read beyond it", MaxRecordSize>>20)}}, true, nil
	case errors.As(err, &parseErr):
		f.line = parseErr.StartLine
		return record{line: f.line, problem: &catalogcsv.Problem{
			Reason: "the row is not valid CSV: " + parseErr.Err.Error()}}, true, nil
	default:
		return record{}, false, err
	}
}

// add validates one record into the chunk.
func (c *chunk) add(f *file, rec record, importID uuid.UUID, currency string) {
	c.records++
	if rec.problem == nil {
		row, problem := f.header.Parse(rec.cells, currency)
		if problem == nil {
			c.revisions = append(c.revisions, catalog.Revision{Line: rec.line, References: row.Product.References, Apply: row.Over})
			return
		}
		rec.problem = problem
	}
	c.failures = append(c.failures, dbgen.CopyCSVImportErrorsParams{
		ImportID: importID, Line: int64(rec.line), Reference: reportedReference(f.header.Reference(rec.cells)),
		ColumnName: rec.problem.Column, Reason: rec.problem.Reason,
	})
}

// takeRevisions hands the chunk's revisions over: once Revise has placed
// them they are garbage while the chunk is written, and two chunks are
// written at a time.
func (c *chunk) takeRevisions() []catalog.Revision {
	r := c.revisions
	c.revisions = nil
	return r
}

// storing is a chunk being stored in a transaction of its own, by a
// goroutine of its own, while the chunk before it may still be. It
// commits only once the chunk before has committed and Process has told
// the workflow so (commit), so the job's counters grow chunk by chunk in
// the file's order and a cancel between chunks rolls back what follows.
type storing struct {
	flight *catalog.Flight
	// ended is closed when the transaction has ended, with job or err set.
	ended chan struct{}
	job   Job
	err   error
	// counted is closed once Process has beaten for the committed job.
	counted chan struct{}
}

// store starts storing chunk c, whose first record follows the processed
// ones, after the chunk ahead (nil for none in flight).
func (p Processor) store(ctx context.Context, job Job, processed int64, currency string, c *chunk, ahead *storing) *storing {
	s := &storing{ended: make(chan struct{}), counted: make(chan struct{})}
	var aheadFlight *catalog.Flight
	if ahead != nil {
		aheadFlight = ahead.flight
	}
	s.flight = catalog.NewFlight(aheadFlight, s.settled)
	go func() {
		defer close(s.ended)
		s.job, s.err = p.write(ctx, job, processed, currency, c, s.flight, ahead)
	}()
	return s
}

// settled waits until the chunk has committed and been counted.
func (s *storing) settled(ctx context.Context) error {
	select {
	case <-s.ended:
	case <-ctx.Done():
		return ctx.Err()
	}
	if s.err != nil {
		return s.err
	}
	select {
	case <-s.counted:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// commit waits for the chunk's transaction, beats with the job it left
// and lets the chunk after it commit.
func (s *storing) commit(beat func(Job)) (Job, error) {
	<-s.ended
	if s.err != nil {
		return Job{}, s.err
	}
	beat(s.job)
	close(s.counted)
	return s.job, nil
}

// wait waits until the chunk's transaction, if any, has ended.
func (s *storing) wait() {
	if s != nil {
		<-s.ended
	}
}

// write stores a chunk and adds its counts to the job's in one
// transaction, after the chunk ahead has committed, and returns the job
// as it then stands.
func (p Processor) write(ctx context.Context, job Job, processed int64, currency string, c *chunk, f *catalog.Flight, ahead *storing) (Job, error) {
	var stored dbgen.CsvImport
	var rows, failed int
	if err := f.Clear(ctx); err != nil {
		return Job{}, err
	}
	err := p.Store.InTx(ctx, func(q *dbgen.Queries) error {
		// A commit lost with a crashed database server is lost with the
		// job's counters, so the retried run stores it again.
		if err := q.RelaxCommitDurability(ctx); err != nil {
			return err
		}
		revised, err := p.Importer.Revise(ctx, q, job.SellerID, job.ID, currency, c.takeRevisions(), f)
		if err != nil {
			return err
		}
		if ahead != nil {
			if err := ahead.settled(ctx); err != nil {
				return err
			}
		}
		counted, err := q.LockCSVImportProgress(ctx, job.ID)
		if err != nil {
			return err
		}
		if counted != processed {
			return ErrConcurrentRun
		}
		failures := c.failures
		for _, rej := range revised.Rejections {
			failures = append(failures, dbgen.CopyCSVImportErrorsParams{
				ImportID: job.ID, Line: int64(rej.Index), Reference: rej.Reference.Reference,
				ColumnName: rejectionColumn(rej.Code), Reason: rej.Description,
			})
		}
		if _, err := q.CopyCSVImportErrors(ctx, failures); err != nil {
			return err
		}
		rows, failed = revised.Stored, len(failures)
		stored, err = q.RecordCSVImportChunk(ctx, dbgen.RecordCSVImportChunkParams{
			ID: job.ID, Processed: c.records, Succeeded: int64(rows), Failed: int64(failed),
			Supported:    int64(revised.Verdicts[catalog.Supported]),
			Unsupported:  int64(revised.Verdicts[catalog.Unsupported]),
			ToBeReviewed: int64(revised.Verdicts[catalog.ToBeReviewed]),
		})
		return err
	})
	if err != nil {
		return Job{}, err
	}
	p.Metrics.CSVRows(rows, failed)
	return jobOf(stored), nil
}

// rejectionColumn is the CSV column a catalog rejection is about.
func rejectionColumn(code string) string {
	switch code {
	case catalog.CodeInvalidReference, catalog.CodeDuplicateReference, catalog.CodeReferenceConflict:
		return "reference"
	case catalog.CodeCurrencyMismatch:
		return "currency"
	}
	return ""
}

var errRecordTooLarge = errors.New("record too large")

// ErrConcurrentRun says another run of the job has counted rows this run
// was about to store; this run's chunk is rolled back and it must stop.
var ErrConcurrentRun = errors.New("another run of this import stored rows meanwhile")

// recordLimit fails a read once more than max bytes have passed since the
// last reset, which the reader does before every record.
type recordLimit struct {
	r    io.Reader
	max  int
	read int
}

func (l *recordLimit) reset() { l.read = 0 }

func (l *recordLimit) Read(p []byte) (int, error) {
	if l.read >= l.max {
		return 0, errRecordTooLarge
	}
	if len(p) > l.max-l.read {
		p = p[:l.max-l.read]
	}
	n, err := l.r.Read(p)
	l.read += n
	return n, err
}
