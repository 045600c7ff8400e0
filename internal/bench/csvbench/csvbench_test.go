package csvbench_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
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
// follows at once) to `completed`.
type importResult struct {
	elapsed   time.Duration
	succeeded int64
	failed    int64
	peakRSS   int64
}

// importFile creates a job, streams the file to its upload link and polls
// until the job completes; the process's peak memory is reset first.
func importFile(b *testing.B, c *sellerclient.Client, path string) importResult {
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
			return importResult{elapsed: time.Since(start), succeeded: job.Succeeded, failed: job.Failed, peakRSS: peakRSS(b)}
		case "failed", "cancelled":
			b.Fatalf("import %s", job.Status)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// copyBaseline times psql's \copy of the seller's imported products into
// a table with the products table's indexes.
func copyBaseline(b *testing.B, store *db.Store, sellerID uuid.UUID) time.Duration {
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
	if _, err := store.Pool.Exec(ctx, `DROP TABLE IF EXISTS copy_baseline; CREATE TABLE copy_baseline (LIKE products INCLUDING ALL)`); err != nil {
		b.Fatal(err)
	}
	dbURL := store.Pool.Config().ConnString()
	start := time.Now()
	out, err := exec.Command("psql", dbURL, "-v", "ON_ERROR_STOP=1", "-c", `\copy copy_baseline FROM '`+dump+`'`).CombinedOutput()
	if err != nil {
		b.Fatalf("psql \\copy: %v\n%s", err, out)
	}
	return time.Since(start)
}

// BenchmarkCSVImport prints the import figures of docs/performance.md.
func BenchmarkCSVImport(b *testing.B) {
	s := newStack(b)
	smallPath, smallStats := generate(b, 100_000)
	largePath, largeStats := generate(b, 1_000_000)
	for b.Loop() {
		_, small := s.seller(b)
		smallRun := importFile(b, small, smallPath)
		largeSeller, large := s.seller(b)
		first := importFile(b, large, largePath)
		again := importFile(b, large, largePath)
		baseline := copyBaseline(b, s.store, largeSeller)

		if want := int64(largeStats.Rows - largeStats.Invalid); first.succeeded != want {
			b.Errorf("imported %d rows, want %d", first.succeeded, want)
		}
		mb := func(n int64) float64 { return float64(n) / (1 << 20) }
		fmt.Printf("%-34s %10s %12s %10s %12s\n", "CSV import", "rows", "file MB", "seconds", "peak RSS MB")
		fmt.Printf("%-34s %10d %12.0f %10.1f %12.0f\n", "25 MB file (new products)", smallStats.Rows, mb(smallStats.Bytes), smallRun.elapsed.Seconds(), mb(smallRun.peakRSS))
		fmt.Printf("%-34s %10d %12.0f %10.1f %12.0f\n", "250 MB file (new products)", largeStats.Rows, mb(largeStats.Bytes), first.elapsed.Seconds(), mb(first.peakRSS))
		fmt.Printf("%-34s %10d %12.0f %10.1f %12.0f\n", "250 MB file again (all updates)", largeStats.Rows, mb(largeStats.Bytes), again.elapsed.Seconds(), mb(again.peakRSS))
		fmt.Printf("%-34s %10d %12s %10.1f\n", "psql \\copy of the valid rows", first.succeeded, "", baseline.Seconds())
		fmt.Printf("import / \\copy: %.2fx (goal ≤ 2x); re-import / \\copy: %.2fx (goal ≤ 4x)\n",
			first.elapsed.Seconds()/baseline.Seconds(), again.elapsed.Seconds()/baseline.Seconds())
		b.ReportMetric(first.elapsed.Seconds(), "import-s")
		b.ReportMetric(again.elapsed.Seconds(), "reimport-s")
		b.ReportMetric(baseline.Seconds(), "copy-s")
		b.ReportMetric(mb(first.peakRSS), "peak-MB")
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
