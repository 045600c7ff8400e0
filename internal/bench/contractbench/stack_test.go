package contractbench_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stack is the dev stack in one process: PostgreSQL, a namespace of the
// Temporal dev server and Tenure's workers, with a seller to own the
// contracts.
type stack struct {
	cfg      *config.Config
	store    *db.Store
	temporal client.Client
	fixture  *contracttest.Fixture
}

func newStack(b *testing.B) *stack {
	b.Helper()
	cfg := testenv.Config(b)
	store := testenv.Connect(b, testenv.DatabaseURL(b), 40)
	tc := testenv.Temporal(b)
	testenv.Worker(b, cfg, store, tc)
	return &stack{cfg: cfg, store: store, temporal: tc, fixture: contracttest.New(b, store, nil)}
}

// contractCount is how many contracts the storm and the memory figures
// take: TENURE_BENCH_CONTRACTS, 10,000 by default.
func contractCount(b *testing.B) int {
	b.Helper()
	v := os.Getenv("TENURE_BENCH_CONTRACTS")
	if v == "" {
		return 10000
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 10 {
		b.Fatalf("TENURE_BENCH_CONTRACTS must be a number of contracts from 10, got %q", v)
	}
	return n
}

// parallel runs op for 0 to n-1 from workers goroutines and returns their
// errors joined.
func parallel(n, workers int, op func(i int) error) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		next = make(chan int)
	)
	for range workers {
		wg.Go(func() {
			for i := range next {
				if err := op(i); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

// memory is the process's resident set and live heap in MiB, after a
// garbage collection that returns what it can to the system.
func memory(b *testing.B) (rss, heap float64) {
	b.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(raw)) {
		if kb, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 64)
			if err != nil {
				b.Fatal(err)
			}
			rss = v / 1024
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return rss, float64(m.HeapAlloc) / (1 << 20)
}

// waitUntil polls cond until it holds, failing after a deadline.
func waitUntil(b *testing.B, what string, deadline time.Time, cond func() (bool, error)) {
	b.Helper()
	for {
		ok, err := cond()
		if err != nil {
			b.Fatal(err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// printf prints a figure on its own line.
func printf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
