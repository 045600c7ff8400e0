package catalogbench_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// server is Tenure's HTTP API on a real local port, over a fresh database,
// with one seller and a token for every scope.
type server struct {
	url    string
	store  *db.Store
	cfg    *config.Config
	seller uuid.UUID
	token  string
	client *http.Client
}

func newServer(b *testing.B, withWorker bool) *server {
	b.Helper()
	cfg := testenv.Config(b)
	store := testenv.Database(b)
	tc := testenv.Temporal(b)
	if withWorker {
		testenv.Worker(b, cfg, store, tc)
	}
	baseURL := testenv.API(b, cfg, store, tc)
	tokens := auth.NewTokens(cfg.Auth.SigningKey, cfg.Auth.TokenTTL)
	seller, err := auth.CreateSeller(b.Context(), store, "Benchmark Seller", "EUR")
	if err != nil {
		b.Fatal(err)
	}
	token, err := tokens.Issue(seller.Seller.ID, seller.Credentials.ClientID, 0, auth.SellerScopes)
	if err != nil {
		b.Fatal(err)
	}
	return &server{
		url: baseURL, store: store, cfg: cfg, seller: seller.Seller.ID, token: token,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: time.Minute},
	}
}

// call sends a request and decodes a 200 answer into out (when not nil).
func (s *server) call(b *testing.B, method, path string, body, out any) {
	b.Helper()
	var reader io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			b.Fatal(err)
		}
		reader = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(b.Context(), method, s.url+path, reader)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			b.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// latencies collects request durations and reports percentiles.
type latencies []time.Duration

func (l latencies) percentile(p float64) time.Duration {
	sorted := slices.Clone(l)
	slices.Sort(sorted)
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// report prints and records the median and the 99th percentile.
func (l latencies) report(b *testing.B, what string) {
	p50, p99 := l.percentile(0.50), l.percentile(0.99)
	fmt.Printf("%s: %d requests, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", what, len(l), ms(p50), ms(p99), ms(l.percentile(1)))
	b.ReportMetric(ms(p50), "p50-ms")
	b.ReportMetric(ms(p99), "p99-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
