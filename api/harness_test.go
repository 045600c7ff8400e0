package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/contractcheck"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// harness is a Tenure HTTP application over a fresh database and a
// namespace of the package's Temporal dev server.
type harness struct {
	app      *fiber.App
	store    *db.Store
	tokens   *auth.Tokens
	cfg      *config.Config
	temporal client.Client
	// brokenOnPurpose skips the response check for a test that breaks
	// the server to see its 500, which no contract lists.
	brokenOnPurpose bool
}

func newHarness(t *testing.T, tune ...func(*config.Config)) *harness {
	t.Helper()
	cfg := testenv.Config(t)
	for _, f := range tune {
		f(cfg)
	}
	store := testenv.Database(t)
	tokens := auth.NewTokens(cfg.Auth.SigningKey, cfg.Auth.TokenTTL)
	tc := testenv.Temporal(t)
	app, err := api.New(api.Deps{
		Config:   cfg,
		Services: testenv.Services(t, cfg, store, tc),
		Tokens:   tokens,
		Logger:   testenv.AppLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{app: app, store: store, tokens: tokens, cfg: cfg, temporal: tc}
}

// worker runs Tenure's workers for the harness until the test ends.
func (h *harness) worker(t *testing.T) {
	t.Helper()
	testenv.Worker(t, h.cfg, h.store, h.temporal)
}

// seller registers a seller directly in the database.
func (h *harness) seller(t *testing.T) auth.NewSeller {
	t.Helper()
	s, err := auth.CreateSeller(t.Context(), h.store, "Seller "+t.Name(), "EUR")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// token obtains an access token through POST /oauth2/token.
func (h *harness) token(t *testing.T, s auth.NewSeller, scope string) string {
	t.Helper()
	resp := h.tokenRequest(t, s.Credentials.ClientID, s.Credentials.ClientSecret, url.Values{
		"grant_type": {"client_credentials"}, "scope": {scope},
	})
	if resp.status != http.StatusOK {
		t.Fatalf("token request: %d %s", resp.status, resp.body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	resp.decode(t, &tok)
	return tok.AccessToken
}

func (h *harness) tokenRequest(t *testing.T, clientID, secret string, form url.Values) response {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if clientID != "" {
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(clientID+":"+secret)))
	}
	return h.send(t, req)
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
}

// apiError decodes the contract's error object.
func (r response) apiError(t *testing.T) map[string]any {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "application/vnd.goa.error" {
		t.Errorf("error media type %q, want application/vnd.goa.error (body %s)", ct, r.body)
	}
	var e map[string]any
	r.decode(t, &e)
	for _, field := range []string{"name", "id", "message", "temporary", "timeout", "fault"} {
		if _, ok := e[field]; !ok {
			t.Errorf("error object lacks %s: %s", field, r.body)
		}
	}
	return e
}

// do sends a request with an optional bearer token and JSON body (a string
// is sent verbatim).
func (h *harness) do(t *testing.T, method, target, token string, body any) response {
	t.Helper()
	var reader io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		reader = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		reader = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, target, reader)
	if reader != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return h.send(t, req)
}

// serve listens on a free local port, for tests that need a real
// connection (Fiber's in-memory test transport reports some refusals, such
// as an oversized body, as transport errors).
func (h *harness) serve(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = h.app.Listener(ln) }()
	t.Cleanup(func() { _ = h.app.ShutdownWithTimeout(5 * time.Second) })
	return "http://" + ln.Addr().String()
}

// send serves a request and checks that the response is one the contract
// of its operation allows (see internal/testing/contractcheck).
func (h *harness) send(t *testing.T, req *http.Request) response {
	t.Helper()
	resp, err := h.app.Test(req, int((30 * time.Second).Milliseconds()))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if !h.brokenOnPurpose {
		contractcheck.Shared(t).Verify(t, req, resp.StatusCode, resp.Header, raw)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: raw}
}
