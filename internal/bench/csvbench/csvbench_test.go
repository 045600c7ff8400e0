package csvbench_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog/catalogcsv"
	"github.com/tenurehq/tenure/internal/testing/csvgen"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stack is Tenure's API and worker in this process, over a fresh database
// and a namespace of the Temporal dev server.
type stack struct {
	store *db.Store
	base  string
}

func newStack(b *testing.B) stack {
	cfg := testenv.Config(b)
	store := testenv.Database(b)
	tc := testenv.Temporal(b)
	testenv.Worker(b, cfg, store, tc)
	return stack{store: store, base: testenv.API(b, cfg, store, tc)}
}

// seller registers a seller and logs in as it.
func (s stack) seller(b *testing.B) (uuid.UUID, *sellerclient.Client) {
	n, err := auth.CreateSeller(b.Context(), s.store, "Bench "+uuid.NewString(), "EUR")
	if err != nil {
		b.Fatal(err)
	}
	c, err := sellerclient.Login(b.Context(), s.base, n.Credentials.ClientID, n.Credentials.ClientSecret)
	if err != nil {
		b.Fatal(err)
	}
	return n.Seller.ID, c
}

// generate writes a file of rows and says what it holds.
func generate(b *testing.B, rows int) (string, csvgen.Stats) {
	path := filepath.Join(b.TempDir(), fmt.Sprintf("catalog-%d.csv", rows))
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	stats, err := csvgen.Generate(w, rows, 1)
	if err == nil {
		err = w.Flush()
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		b.Fatal(err)
	}
	return path, stats
}

// importResult is one import measured from the job's creation (the upload
// follows at once) to `completed`, and to the moment the last of its
// products entered the search index after it.
type importResult struct {
	elapsed   time.Duration
	indexed   time.Duration
	succeeded int64
	failed    int64
	peakRSS   int64
}

// importFile creates a job, streams the file to its upload link and polls
// until the job completes, then until none of the seller's products waits
// for the search index (so that indexing never runs beside what is
// measured next); the process's peak memory is reset first.
func importFile(b *testing.B, s stack, sellerID uuid.UUID, c *sellerclient.Client, path string) importResult {
	ctx := b.Context()
	resetPeakRSS(b)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	id, err := c.ImportCSV(ctx, filepath.Base(path), f, info.Size())
	if err != nil {
		b.Fatal(err)
	}
	for {
		var job struct {
			Status    string `json:"status"`
			Succeeded int64  `json:"succeeded"`
			Failed    int64  `json:"failed"`
		}
		if status, body, err := c.Do(ctx, http.MethodGet, "/v1/catalog/imports/"+id, nil, &job); err != nil || status != http.StatusOK {
			b.Fatalf("get import: %d %s %v", status, body, err)
		}
		switch job.Status {
		case "completed":
			r := importResult{elapsed: time.Since(start), succeeded: job.Succeeded, failed: job.Failed, peakRSS: peakRSS(b)}
			r.indexed = awaitSearchIndex(b, s.store, sellerID).Sub(start)
			return r
		case "failed", "cancelled":
			b.Fatalf("import %s", job.Status)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// awaitSearchIndex polls until none of the seller's products waits for
// the search index and returns when it saw that.
func awaitSearchIndex(b *testing.B, store *db.Store, sellerID uuid.UUID) time.Time {
	for {
		var pending bool
		if err := store.Pool.QueryRow(b.Context(), `SELECT EXISTS (SELECT 1 FROM products WHERE seller_id = $1 AND search_pending)`, sellerID).Scan(&pending); err != nil {
			b.Fatal(err)
		}
		if !pending {
			return time.Now()
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// schemaCopy times psql's \copy of the seller's imported products into a
// table with the products table's columns, constraints and indexes (the
// trigram index included): the floor of Tenure's own schema.
func schemaCopy(b *testing.B, store *db.Store, sellerID uuid.UUID) time.Duration {
	ctx := context.Background()
	dump := filepath.Join(b.TempDir(), "products.copy")
	f, err := os.Create(dump)
	if err != nil {
		b.Fatal(err)
	}
	conn, err := store.Pool.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	_, err = conn.Conn().PgConn().CopyTo(ctx, f, fmt.Sprintf("COPY (SELECT * FROM products WHERE seller_id = '%s') TO STDOUT", sellerID))
	conn.Release()
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		b.Fatal(err)
	}
	return timedCopy(b, store, `CREATE TABLE copy_baseline (LIKE products INCLUDING ALL)`, `\copy copy_baseline FROM '`+dump+`'`)
}

// minimalCopy times psql's \copy of the CSV file itself into a plain table
// of text columns, one per column of the contract, with two indexes: the
// reference (what an import matches rows by) and the title. It is the
// least a database does to take the file in and find its rows again.
func minimalCopy(b *testing.B, store *db.Store, path string) time.Duration {
	var cols []string
	for _, name := range catalogcsv.ColumnNames() {
		cols = append(cols, name+" text")
	}
	create := `CREATE TABLE copy_baseline (` + strings.Join(cols, ", ") + `);
		CREATE INDEX ON copy_baseline (reference); CREATE INDEX ON copy_baseline (title)`
	return timedCopy(b, store, create, `\copy copy_baseline FROM '`+path+`' WITH (FORMAT csv, HEADER true)`)
}

// timedCopy creates the table copy_baseline afresh and times a psql
// command that copies into it.
func timedCopy(b *testing.B, store *db.Store, create, copyCommand string) time.Duration {
	if _, err := store.Pool.Exec(context.Background(), `DROP TABLE IF EXISTS copy_baseline; `+create); err != nil {
		b.Fatal(err)
	}
	dbURL := store.Pool.Config().ConnString()
	start := time.Now()
	out, err := exec.Command("psql", dbURL, "-v", "ON_ERROR_STOP=1", "-c", copyCommand).CombinedOutput()
	if err != nil {
		b.Fatalf("psql %s: %v\n%s", copyCommand, err, out)
	}
	return time.Since(start)
}

// rounds is how many times the large file's first import is run beside
// the minimal \copy; the ratio reported is their median.
const rounds = 3

// BenchmarkCSVImport prints the import figures of docs/performance.md: in
// each of three rounds a new seller's first import of the 1,000,000-row
// file beside psql's minimal \copy of the same file, and the median of
// the rounds' ratios; then the 100,000-row file, a re-import of the large
// file (every row an update) and the \copy into Tenure's own schema.
func BenchmarkCSVImport(b *testing.B) {
	s := newStack(b)
	smallPath, smallStats := generate(b, 100_000)
	largePath, largeStats := generate(b, 1_000_000)
	mb := func(n int64) float64 { return float64(n) / (1 << 20) }
	for b.Loop() {
		var (
			ratios  []float64
			first   importResult
			seller  uuid.UUID
			client  *sellerclient.Client
			maxPeak int64
		)
		fmt.Printf("%-6s %14s %12s %12s %14s %10s\n", "round", "import s", "indexed s", "peak RSS MB", "minimal copy s", "ratio")
		for round := 1; round <= rounds; round++ {
			seller, client = s.seller(b)
			first = importFile(b, s, seller, client, largePath)
			if want := int64(largeStats.Rows - largeStats.Invalid); first.succeeded != want {
				b.Errorf("imported %d rows, want %d", first.succeeded, want)
			}
			minimal := minimalCopy(b, s.store, largePath)
			ratios = append(ratios, first.elapsed.Seconds()/minimal.Seconds())
			maxPeak = max(maxPeak, first.peakRSS)
			fmt.Printf("%-6d %14.1f %12.1f %12.0f %14.1f %9.2fx\n", round, first.elapsed.Seconds(), first.indexed.Seconds(), mb(first.peakRSS), minimal.Seconds(), ratios[len(ratios)-1])
		}
		median := slices.Sorted(slices.Values(ratios))[rounds/2]
		fmt.Printf("import / minimal \\copy, median of %d rounds: %.2fx (goal ≤ 3x)\n", rounds, median)

		smallSeller, small := s.seller(b)
		smallRun := importFile(b, s, smallSeller, small, smallPath)
		again := importFile(b, s, seller, client, largePath)
		schema := schemaCopy(b, s.store, seller)
		fmt.Printf("%-34s %10s %12s %10s %10s %12s\n", "CSV import", "rows", "file MB", "seconds", "indexed s", "peak RSS MB")
		for _, r := range []struct {
			name  string
			stats csvgen.Stats
			run   importResult
		}{
			{"25 MB file (new products)", smallStats, smallRun},
			{"250 MB file (new products)", largeStats, first},
			{"250 MB file again (all updates)", largeStats, again},
		} {
			fmt.Printf("%-34s %10d %12.0f %10.1f %10.1f %12.0f\n", r.name, r.stats.Rows, mb(r.stats.Bytes), r.run.elapsed.Seconds(), r.run.indexed.Seconds(), mb(r.run.peakRSS))
		}
		fmt.Printf("%-34s %10d %12s %10.1f\n", "psql \\copy into Tenure's schema", first.succeeded, "", schema.Seconds())
		fmt.Printf("import / \\copy into the schema: %.2fx; re-import / \\copy into the schema: %.2fx\n",
			first.elapsed.Seconds()/schema.Seconds(), again.elapsed.Seconds()/schema.Seconds())
		b.ReportMetric(median, "import/minimal-copy")
		b.ReportMetric(first.elapsed.Seconds(), "import-s")
		b.ReportMetric(again.elapsed.Seconds(), "reimport-s")
		b.ReportMetric(schema.Seconds(), "schema-copy-s")
		b.ReportMetric(mb(max(maxPeak, smallRun.peakRSS, again.peakRSS)), "peak-MB")
	}
}

// resetPeakRSS starts a new high-water mark of this process's memory.
func resetPeakRSS(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Fatalf("resetting the peak RSS: %v", err)
	}
}

// peakRSS is this process's resident memory high-water mark (VmHWM).
func peakRSS(b *testing.B) int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}
