package apitest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
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
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/contractcheck"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// Harness is a Tenure HTTP application over a fresh database and a
// namespace of the package's Temporal dev server.
type Harness struct {
	App      *fiber.App
	Store    *db.Store
	Tokens   *auth.Tokens
	Config   *config.Config
	Temporal client.Client
	// BrokenOnPurpose skips the response check for a test that breaks
	// the server to see its 500, which no contract lists.
	BrokenOnPurpose bool
}

// New is a harness over a fresh database and a namespace of the test
// package's Temporal dev server, its configuration tuned for the test.
func New(t *testing.T, tune ...func(*config.Config)) *Harness {
	t.Helper()
	return NewLogged(t, testenv.AppLogger(), tune...)
}

// NewLogged is New with the application logging to logger, for tests that
// read what it logs.
func NewLogged(t *testing.T, logger *slog.Logger, tune ...func(*config.Config)) *Harness {
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
		Logger:   logger,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &Harness{App: app, Store: store, Tokens: tokens, Config: cfg, Temporal: tc}
}

// Worker runs Tenure's workers for the harness until the test ends.
func (h *Harness) Worker(t *testing.T) {
	t.Helper()
	testenv.Worker(t, h.Config, h.Store, h.Temporal)
}

// Seller registers a seller directly in the database.
func (h *Harness) Seller(t *testing.T) auth.NewSeller {
	t.Helper()
	s, err := auth.CreateSeller(t.Context(), h.Store, "Seller "+t.Name(), "EUR")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Token obtains an access token through POST /oauth2/token.
func (h *Harness) Token(t *testing.T, s auth.NewSeller, scope string) string {
	t.Helper()
	resp := h.TokenRequest(t, s.Credentials.ClientID, s.Credentials.ClientSecret, url.Values{
		"grant_type": {"client_credentials"}, "scope": {scope},
	})
	return accessToken(t, resp, "token request")
}

// accessToken reads the access token the token endpoint issued, wanting
// 200 for what was asked.
func accessToken(t *testing.T, resp Response, what string) string {
	t.Helper()
	if resp.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", what, resp.Status, resp.Body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	resp.Decode(t, &tok)
	return tok.AccessToken
}

// TokenRequest sends POST /oauth2/token with the form, authenticating the
// client with HTTP Basic when a client id is given.
func (h *Harness) TokenRequest(t *testing.T, clientID, secret string, form url.Values) Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if clientID != "" {
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(clientID+":"+secret)))
	}
	return h.Send(t, req)
}

// Response is an answer of the application.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode reads the JSON body into v.
func (r Response) Decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.Body, err)
	}
}

// APIError decodes the contract's error object.
func (r Response) APIError(t *testing.T) map[string]any {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != "application/vnd.goa.error" {
		t.Errorf("error media type %q, want application/vnd.goa.error (body %s)", ct, r.Body)
	}
	var e map[string]any
	r.Decode(t, &e)
	for _, field := range []string{"name", "id", "message", "temporary", "timeout", "fault"} {
		if _, ok := e[field]; !ok {
			t.Errorf("error object lacks %s: %s", field, r.Body)
		}
	}
	return e
}

// Do sends a request with an optional bearer token and JSON body (a string
// is sent verbatim).
func (h *Harness) Do(t *testing.T, method, target, token string, body any) Response {
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
	return h.Send(t, req)
}

// Serve listens on a free local port, for tests that need a real
// connection (Fiber's in-memory test transport reports some refusals, such
// as an oversized body, as transport errors).
func (h *Harness) Serve(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = h.App.Listener(ln) }()
	t.Cleanup(func() { _ = h.App.ShutdownWithTimeout(5 * time.Second) })
	return "http://" + ln.Addr().String()
}

// Send serves a request and checks that the response is one the contract
// of its operation allows (see internal/testing/contractcheck).
func (h *Harness) Send(t *testing.T, req *http.Request) Response {
	t.Helper()
	resp, err := h.App.Test(req, int((30 * time.Second).Milliseconds()))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if !h.BrokenOnPurpose {
		contractcheck.Shared(t).Verify(t, req, resp.StatusCode, resp.Header, raw)
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

// ErrorName is the name of an error object, checking its shape.
func (r Response) ErrorName(t *testing.T) string {
	t.Helper()
	name, _ := r.APIError(t)["name"].(string)
	return name
}

// Count runs a SQL query that counts rows.
func (h *Harness) Count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := h.Store.Pool.QueryRow(t.Context(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// NewRequest is a request without a body.
func NewRequest(method, target string) *http.Request { return httptest.NewRequest(method, target, nil) }

// ListAll lists every shipping method of a seller.
func ListAll(s auth.NewSeller) dbgen.ListShippingMethodsParams {
	return dbgen.ListShippingMethodsParams{SellerID: s.Seller.ID, RowLimit: 1000}
}

// Deref is the string s points to, "" for nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
