package consolebench_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// The data the pages are measured over.
const (
	// totalOffers are the offers in the database; one in inReviewEvery of
	// them waits in the review queue.
	totalOffers   = 1_000_000
	inReviewEvery = 20
	sellerCount   = 1_000
	auditEntries  = 200_000
	// requests are the timed requests of each page, after warmUp.
	requests = 300
	warmUp   = 30
)

// BenchmarkConsoleLists fills PostgreSQL with 1,000,000 offers (50,000 in
// review, each with a VAT number shared by about 20 offers and a risk
// decision reserving its exposure), 1,000 sellers and 200,000 audit
// entries, signs an admin in over HTTP, and requests each operator list
// page 300 times in a row: p99 per page (goal ≤ 100 ms) and the first
// page's load compressed with gzip (HTML, style sheet and htmx; goal ≤
// 100 KB).
func BenchmarkConsoleLists(b *testing.B) {
	cfg := testenv.Config(b)
	cfg.Environment = config.Production
	store := testenv.Database(b)
	tc := testenv.Temporal(b)
	testenv.Worker(b, cfg, store, tc)
	svc := testenv.Services(b, cfg, store, tc)
	base := testenv.API(b, cfg, store, tc)
	template := templateOffer(b, store, cfg, svc)

	start := time.Now()
	fill(b, store, template)
	b.Logf("filled %d offers, %d sellers, %d audit entries in %s", totalOffers, sellerCount, auditEntries, time.Since(start).Round(time.Second))

	client := signIn(b, base, svc)
	deep := deepCursor(b, store)
	pages := []struct{ name, path string }{
		{"review_first", "/console/review"},
		{"review_deep", "/console/review?after=" + url.QueryEscape(deep)},
		{"audit_first", "/console/audit"},
		{"audit_filtered", "/console/audit?action=offer.accept"},
		{"sellers_first", "/console/sellers"},
		{"offer_page", "/console/offers/" + template.String()},
	}
	b.ResetTimer()
	for range b.N {
		for _, p := range pages {
			p99 := measure(b, client, base+p.path)
			b.ReportMetric(float64(p99.Microseconds())/1000, p.name+"_p99_ms")
		}
		b.ReportMetric(float64(firstLoad(b, client, base))/1024, "first_load_gzip_KB")
	}
}

// templateOffer is one offer made through the workflows as a seller makes
// it and reviewed by the default risk rules: the document every offer in
// review of the benchmark is a copy of.
func templateOffer(b *testing.B, store *db.Store, cfg *config.Config, svc *services.Services) uuid.UUID {
	b.Helper()
	seller, err := auth.CreateSeller(b.Context(), store, "Bench Seller", "EUR")
	if err != nil {
		b.Fatal(err)
	}
	testenv.Catalog(b, store, cfg, seller.Seller.ID, "EUR", catalog.ProductInput{
		Title: "Server", Type: "hardware", IsActive: true,
		Price:      catalog.Money{Currency: "EUR", Net: 500000, Gross: 595000},
		References: []catalog.Reference{{Source: "sku", Reference: "server"}},
	})
	name, vat := "Template GmbH", "DE000000000"
	o, err := svc.Offers.Create(b.Context(), seller.Seller.ID, offers.Request{
		Reference: "bench-template", SalesChannel: "telesales", ExpiresAt: time.Now().Add(24 * time.Hour),
		Customer:        &offers.Customer{Company: &offers.Company{Name: &name, VATNumber: &vat}},
		ShippingAddress: &offers.Address{City: "Berlin", CountryCode: "DE", Line1: "Hauptstraße 1", PostalCode: "10115"},
		Lines: []offers.LineRequest{{Title: "Server", Quantity: 6, Product: catalog.Reference{Source: "sku", Reference: "server"},
			Price: offers.PriceRequest{Currency: "EUR", Net: 500000}}},
	}, offers.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := svc.Offers.SubmitForReview(b.Context(), seller.Seller.ID, o.Row.ID); err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		got, err := svc.Offers.Get(b.Context(), seller.Seller.ID, o.Row.ID)
		if err != nil {
			b.Fatal(err)
		}
		if got.Row.Status == "pending_review" && got.Document.RiskReview != nil {
			return o.Row.ID
		}
		if time.Now().After(deadline) {
			b.Fatalf("the template offer is %s, want pending_review with a risk decision", got.Row.Status)
		}
	}
}

// fill writes the benchmark's data with set-wise SQL: sellers, offers
// (those in review copies of the template's document with their own
// company and VAT number and a risk decision; the others a minimal
// document, as no list page reads it), audit entries, then VACUUM ANALYZE
// (the steady state autovacuum keeps: the GIN pending list merged).
func fill(b *testing.B, store *db.Store, template uuid.UUID) {
	b.Helper()
	statements := []string{
		fmt.Sprintf(`INSERT INTO sellers (id, name, currency, created_at)
			SELECT gen_random_uuid(), 'Seller ' || lpad(g::text, 5, '0'), 'EUR', now() - make_interval(days => g)
			FROM generate_series(1, %d) g`, sellerCount),
		`CREATE TEMP TABLE bench_sellers AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM sellers`,
		fmt.Sprintf(`INSERT INTO offers (id, seller_id, seller_offer_reference, status, sales_channel, document, expires_at, created_at)
			SELECT gen_random_uuid(), s.id, 'bench-' || g,
			       CASE WHEN g %% %[2]d = 0 THEN 'pending_review'
			            ELSE (ARRAY['created', 'accepted', 'declined', 'expired', 'voided'])[1 + g %% 5] END,
			       'ecommerce',
			       CASE WHEN g %% %[2]d = 0 THEN jsonb_set(jsonb_set(t.document,
			                 '{customer,company,name}', to_jsonb('Company ' || (g / %[2]d) %% 2500 || ' GmbH')),
			                 '{customer,company,vat_number}', to_jsonb('DE' || lpad(((g / %[2]d) %% 2500)::text, 9, '0')))
			            ELSE '{}'::jsonb END,
			       now() + interval '30 days', now() - make_interval(secs => %[1]d - g)
			FROM generate_series(1, %[1]d) g
			JOIN bench_sellers s ON s.n = 1 + g %% %[3]d
			CROSS JOIN (SELECT document FROM offers WHERE id = '%[4]s') t`, totalOffers, inReviewEvery, sellerCount, template),
		`INSERT INTO risk_decisions (id, offer_id, seller_id, snapshot_version, snapshot, company_keys, currency, reserved_net,
			                            rule_set_version, outcome, rule_id, reason)
			SELECT gen_random_uuid(), o.id, o.seller_id, 1, '{}', ARRAY['vat:' || (o.document #>> '{customer,company,vat_number}')], 'EUR', 3000000,
			       'bench', 'manual', 'bench', '{"code": "bench", "en": "bench", "de": "bench", "nl": "bench"}'
			FROM offers o WHERE o.status = 'pending_review' AND o.seller_offer_reference ~ '^bench-[0-9]+$'`,
		fmt.Sprintf(`INSERT INTO console_audit (id, at, actor_email, action, target, detail, outcome)
			SELECT gen_random_uuid(), now() - make_interval(secs => g),
			       'ops' || g %% 20 || '@example.com', (ARRAY['offer.accept', 'offer.decline', 'sign_in', 'sign_out'])[1 + g %% 4],
			       'offer ' || gen_random_uuid(), 'bench', 'succeeded'
			FROM generate_series(1, %d) g`, auditEntries),
		`VACUUM ANALYZE`,
	}
	for _, sql := range statements {
		if _, err := store.Pool.Exec(b.Context(), sql); err != nil {
			b.Fatalf("%v\n%s", err, sql)
		}
	}
}

// signIn creates an admin and signs them in over HTTP: a client whose
// requests carry the session's cookie.
func signIn(b *testing.B, base string, svc *services.Services) *session {
	b.Helper()
	acct, err := svc.Console.Accounts.CreateOperator(b.Context(), "bench@example.com", console.Admin, "")
	if err != nil {
		b.Fatal(err)
	}
	secret := testenv.TOTPSecret(b, acct.ProvisioningURI)
	form := url.Values{"email": {"bench@example.com"}, "password": {acct.Password}, "code": {console.TOTPCode(secret, console.TOTPStep(time.Now()))}}
	req, _ := http.NewRequest(http.MethodPost, base+"/console/sign-in", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		if strings.HasPrefix(c.Name, "__Host-") {
			return &session{cookie: c.Name + "=" + c.Value, client: &http.Client{Timeout: 10 * time.Second}}
		}
	}
	b.Fatalf("signing in answered %d without a session cookie", resp.StatusCode)
	return nil
}

// session is a signed-in operator's HTTP client.
type session struct {
	cookie string
	client *http.Client
}

// get requests a page as the operator; gzip asks for a compressed answer
// (and answers what came over the wire).
func (s *session) get(b *testing.B, address string, gzipped bool) []byte {
	b.Helper()
	req, _ := http.NewRequest(http.MethodGet, address, nil)
	req.Header.Set("Cookie", s.cookie)
	if gzipped {
		// Set by hand, Go's transport leaves the body compressed.
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %v\n%.400s", address, resp.StatusCode, err, body)
	}
	if gzipped && resp.Header.Get("Content-Encoding") != "gzip" {
		// The server does not compress: what gzip makes of it.
		var out bytes.Buffer
		w := gzip.NewWriter(&out)
		_, _ = w.Write(body)
		_ = w.Close()
		return out.Bytes()
	}
	return body
}

// measure requests a page warmUp times, then requests times, and answers
// the p99 of the latter.
func measure(b *testing.B, s *session, address string) time.Duration {
	b.Helper()
	for range warmUp {
		s.get(b, address, false)
	}
	took := make([]time.Duration, requests)
	for i := range took {
		t0 := time.Now()
		s.get(b, address, false)
		took[i] = time.Since(t0)
	}
	slices.Sort(took)
	b.Logf("%s: p50 %s p99 %s max %s", address, took[len(took)/2], took[len(took)*99/100], took[len(took)-1])
	return took[len(took)*99/100]
}

// assetLinks are the style sheet and scripts a page loads.
var assetLinks = regexp.MustCompile(`(?:href|src)="(/console/assets/[^"]+)"`)

// firstLoad is what the review queue's first load transfers, compressed
// with gzip: its HTML and every asset it links.
func firstLoad(b *testing.B, s *session, base string) int {
	b.Helper()
	page := s.get(b, base+"/console/review", true)
	total := len(page)
	html := s.get(b, base+"/console/review", false)
	for _, m := range assetLinks.FindAllSubmatch(html, -1) {
		total += len(s.get(b, base+string(m[1]), true))
	}
	b.Logf("first load: %d bytes compressed (the page %d)", total, len(page))
	return total
}

// deepCursor is the review queue's cursor nine tenths of the way through
// the offers in review.
func deepCursor(b *testing.B, store *db.Store) string {
	b.Helper()
	var at time.Time
	var id uuid.UUID
	err := store.Pool.QueryRow(b.Context(), `SELECT created_at, id FROM offers WHERE status = 'pending_review'
		ORDER BY created_at, id OFFSET $1 LIMIT 1`, totalOffers/inReviewEvery*9/10).Scan(&at, &id)
	if err != nil {
		b.Fatal(err)
	}
	return at.UTC().Format(time.RFC3339Nano) + "_" + id.String()
}
