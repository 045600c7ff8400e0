package consolebench_test

import (
	"bytes"
	"compress/gzip"
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

// requests are the timed requests of each page, after warmUp.
const (
	requests = 300
	warmUp   = 30
)

// BenchmarkConsoleLists fills PostgreSQL with 1,000,000 offers and the
// records that follow from them (fill), signs an operator admin and an
// admin of the big seller in over HTTP, and requests each list page of
// the console (pages) 300 times in a row: p50 and p99 per page (goal
// p99 ≤ 100 ms) and the first page's load compressed with gzip (HTML,
// style sheet and htmx; goal ≤ 100 KB).
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
	b.Logf("filled %d offers and what follows from them in %s", totalOffers, time.Since(start).Round(time.Second))

	operator, err := svc.Console.Accounts.CreateOperator(b.Context(), "bench@example.com", console.Admin, "")
	if err != nil {
		b.Fatal(err)
	}
	seller, err := svc.Console.Accounts.CreateSellerUser(b.Context(), bigSeller(b, store), portalEmail, console.Admin, "")
	if err != nil {
		b.Fatal(err)
	}
	sessions := map[bool]*session{false: signIn(b, base, operator), true: signIn(b, base, seller)}
	fillIn := addresses(b, store, template)
	b.ResetTimer()
	for range b.N {
		for _, p := range pages {
			p50, p99 := measure(b, sessions[p.portal], base+"/console"+fillIn.Replace(p.address))
			b.ReportMetric(float64(p50.Microseconds())/1000, p.name+"_p50_ms")
			b.ReportMetric(float64(p99.Microseconds())/1000, p.name+"_p99_ms")
		}
		b.ReportMetric(float64(firstLoad(b, sessions[false], base))/1024, "first_load_gzip_KB")
	}
}

// bigSeller is the seller whose user the portal's pages are measured as.
func bigSeller(b *testing.B, store *db.Store) uuid.UUID {
	b.Helper()
	var id uuid.UUID
	if err := store.Pool.QueryRow(b.Context(), `SELECT id FROM sellers WHERE name = $1`, bigSellerName).Scan(&id); err != nil {
		b.Fatal(err)
	}
	return id
}

// addresses fills in the ids the pages' addresses name: the review
// queue's cursor nine tenths of the way through the offers in review,
// the template offer, and the big seller's endpoint with the most
// deliveries.
func addresses(b *testing.B, store *db.Store, template uuid.UUID) *strings.Replacer {
	b.Helper()
	var at time.Time
	var id, endpoint uuid.UUID
	err := store.Pool.QueryRow(b.Context(), `SELECT created_at, id FROM offers WHERE status = 'pending_review'
		ORDER BY created_at, id OFFSET $1 LIMIT 1`, totalOffers/inReviewEvery*9/10).Scan(&at, &id)
	if err != nil {
		b.Fatal(err)
	}
	err = store.Pool.QueryRow(b.Context(), `SELECT endpoint_id FROM webhook_deliveries
		WHERE seller_id = (SELECT id FROM sellers WHERE name = $1) GROUP BY endpoint_id ORDER BY count(*) DESC LIMIT 1`,
		bigSellerName).Scan(&endpoint)
	if err != nil {
		b.Fatal(err)
	}
	deep := at.UTC().Format(time.RFC3339Nano) + "_" + id.String()
	return strings.NewReplacer("{deep}", url.QueryEscape(deep), "{offer}", template.String(), "{endpoint}", endpoint.String())
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

// signIn signs an account in over HTTP with its password and TOTP code:
// a client whose requests carry the session's cookie.
func signIn(b *testing.B, base string, acct console.NewAccount) *session {
	b.Helper()
	secret := testenv.TOTPSecret(b, acct.ProvisioningURI)
	form := url.Values{"email": {acct.User.Email}, "password": {acct.Password}, "code": {console.TOTPCode(secret, console.TOTPStep(time.Now()))}}
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
// the p50 and p99 of the latter.
func measure(b *testing.B, s *session, address string) (p50, p99 time.Duration) {
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
	return took[len(took)/2], took[len(took)*99/100]
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
