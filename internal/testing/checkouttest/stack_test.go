package checkouttest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stack is a whole Tenure on 127.0.0.1 (API with the checkout, workers,
// PostgreSQL, a namespace of the dev server) with one seller and its
// catalog, and the seller's shop the checkout sends customers back to.
type stack struct {
	cfg    *config.Config
	url    string
	seller *sellerclient.Client
	shop   *shop
	store  *db.Store
	// sellerID is the seller's id, for the operator's settings.
	sellerID uuid.UUID
}

// The seller's products: a laptop that can be rented, and a mouse that is
// too cheap to rent.
const (
	laptopTitle = "ThinkPad T14 Gen 5"
	mouseTitle  = "MX Master 3S"
)

func newStack(t *testing.T, tune ...func(*config.Config)) *stack {
	t.Helper()
	cfg := testenv.Config(t)
	for _, f := range tune {
		f(cfg)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Checkout links and the identity provider's return address start
	// with the public URL, so it is known before the server starts.
	cfg.HTTP.PublicURL = "http://" + ln.Addr().String()
	store := testenv.Database(t)
	tc := testenv.Temporal(t)
	testenv.Worker(t, cfg, store, tc)
	app, err := api.New(api.Deps{Config: cfg, Services: testenv.Services(t, cfg, store, tc),
		Tokens: auth.NewTokens(cfg.Auth.SigningKey, cfg.Auth.TokenTTL), Logger: testenv.AppLogger()})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	t.Cleanup(func() { _ = app.ShutdownWithTimeout(5 * time.Second) })

	s, err := auth.CreateSeller(t.Context(), store, "Musterhandel GmbH", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	client, err := sellerclient.Login(t.Context(), cfg.HTTP.PublicURL, s.Credentials.ClientID, s.Credentials.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	st := &stack{cfg: cfg, url: cfg.HTTP.PublicURL, seller: client, shop: newShop(t), store: store, sellerID: s.Seller.ID}
	st.call(t, http.MethodPost, "/v1/catalog/import", map[string]any{"products": []map[string]any{
		product("sku", "T14-G5", laptopTitle, 149900),
		product("sku", "MX3S", mouseTitle, 8395),
	}}, http.StatusOK, nil)
	return st
}

func product(source, reference, title string, net int64) map[string]any {
	return map[string]any{
		"title": title, "manufacturer": "Acme", "is_active": true, "seller_product_type": "hardware",
		"seller_product_references": []map[string]any{{"source": source, "reference": reference}},
		"price":                     map[string]any{"currency": "EUR", "net": net, "gross": (net*119 + 50) / 100, "tax_rate": 1900},
	}
}

// call sends a Seller API request and wants status; out, when not nil,
// receives the answer.
func (s *stack) call(t *testing.T, method, path string, body any, want int, out any) {
	t.Helper()
	status, raw, err := s.seller.Do(t.Context(), method, path, body, out)
	if err != nil || status != want {
		t.Fatalf("%s %s: %d %s (%v), want %d", method, path, status, raw, err, want)
	}
}

// offer is what the tests read of a Seller API offer.
type offer struct {
	ID          string    `json:"id"`
	Status      string    `json:"status"`
	Reference   string    `json:"seller_offer_reference"`
	CheckoutURL string    `json:"checkout_redirect_url"`
	ExpiresAt   time.Time `json:"expires_at"`
}

// createOffer makes an e-commerce offer of two laptops and a mouse for a
// German company, sent back to the shop on success or exit.
func (s *stack) createOffer(t *testing.T, reference string, expires time.Time) offer {
	t.Helper()
	var o offer
	s.call(t, http.MethodPost, "/v1/offers", s.offerPayload(reference, expires), http.StatusCreated, &o)
	return o
}

// offerPayload is the Seller API's description of the offer createOffer
// makes.
func (s *stack) offerPayload(reference string, expires time.Time) map[string]any {
	return map[string]any{
		"seller_offer_reference": reference,
		"sales_channel":          "ecommerce",
		"expires_at":             expires.UTC().Format(time.RFC3339),
		"success_redirect":       s.shopURL() + "/checkout/done?cart=42",
		"exit_redirect":          s.shopURL() + "/cart",
		"customer": map[string]any{
			"email": "berta@buyer.example", "full_name": "Berta Buyer",
			"company": map[string]any{"name": "Buyer GmbH"},
		},
		"shipping_address": map[string]any{"city": "Berlin", "country_code": "DE", "line1": "Torstraße 1", "postal_code": "10119"},
		"lines": []map[string]any{
			{"title": laptopTitle, "quantity": 2, "seller_product_reference": map[string]any{"source": "sku", "reference": "T14-G5"},
				"price": map[string]any{"currency": "EUR", "net": 149900}},
			{"title": mouseTitle, "quantity": 1, "seller_product_reference": map[string]any{"source": "sku", "reference": "MX3S"},
				"price": map[string]any{"currency": "EUR", "net": 8395}},
		},
	}
}

// shopURL is where the checkout sends the customer back: the test's shop
// in the sandbox; in production, whose redirects are https URLs to hosts
// other than this machine (package weburl), an address no test follows.
func (s *stack) shopURL() string {
	if s.cfg.Environment == config.Production {
		return "https://shop.example"
	}
	return s.shop.url
}

// simulate runs a sandbox scenario on an offer.
func (s *stack) simulate(t *testing.T, scenario, offerID string) {
	t.Helper()
	s.call(t, http.MethodPost, "/v1/scenario_simulations/"+scenario,
		map[string]any{"scenario_input": map[string]any{"id": offerID}}, http.StatusOK, nil)
}

// shop is the seller's web shop: it records where customers land.
type shop struct {
	url    string
	mu     sync.Mutex
	visits []url.URL
}

func newShop(t *testing.T) *shop {
	t.Helper()
	s := &shop{}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.visits = append(s.visits, *r.URL)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!DOCTYPE html><html lang="en"><title>Shop</title><main><h1>Back at the shop</h1></main></html>`))
	}))
	t.Cleanup(server.Close)
	s.url = server.URL
	return s
}

// waitLanding waits for the customer of an offer to land at the shop and
// returns where.
func (s *shop) waitLanding(t *testing.T, offerID string) url.URL {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		for _, v := range slices.Backward(s.visits) {
			if v.Query().Get("offer_id") == offerID {
				s.mu.Unlock()
				return v
			}
		}
		s.mu.Unlock()
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the customer of offer %s did not come back to the shop", offerID)
	return url.URL{}
}
