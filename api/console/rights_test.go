package console_test

import (
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	consoleapi "github.com/tenurehq/tenure/api/console"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/foundation/keyring"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// rightsHarness is the console on a real database with one account of
// every kind and role, and a clock that moves on half a minute per
// sign-in, so each sign-in has a TOTP code of its own.
type rightsHarness struct {
	app      *fiber.App
	accounts *console.Accounts
	now      time.Time
	secret   []byte
	password string
	// sellerID is the seller of the seller users among the principals.
	sellerID uuid.UUID
	// foreign are, by route parameter (without its colon), ids of another
	// seller's records: request fills a route's parameters with them, so
	// every seller route is tried on records that are not the user's.
	// A parameter not listed gets a random uuid.
	foreign map[string]string
	// foreignState reads the other seller's records the foreign ids name,
	// to show that refused requests changed nothing.
	foreignState []func(t *testing.T) any
}

// principal is an account of a kind and role.
type principal struct {
	kind  console.Kind
	role  console.Role
	email string
}

// principals are every kind and role the route table may name.
var principals = []principal{
	{console.Operator, console.Reviewer, "reviewer@example.com"},
	{console.Operator, console.Finance, "finance@example.com"},
	{console.Operator, console.Admin, "admin@example.com"},
	{console.SellerUser, console.Admin, "seller-admin@example.com"},
	{console.SellerUser, console.Agent, "agent@example.com"},
}

func newRightsHarness(t *testing.T) *rightsHarness {
	t.Helper()
	store := testenv.Database(t)
	ring, err := keyring.Parse([]string{testenv.TestTOTPKey})
	if err != nil {
		t.Fatal(err)
	}
	h := &rightsHarness{now: time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC), secret: console.NewTOTPSecret(), password: "the same long password"}
	rp, err := console.NewRelyingParty("http://localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	h.accounts = &console.Accounts{Store: store, TOTPKeys: ring, RelyingParty: rp, IdleTimeout: 30 * time.Minute, AbsoluteTimeout: 12 * time.Hour,
		Now: func() time.Time { return h.now }}
	seller, err := auth.CreateSeller(t.Context(), store, "Rights Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	h.sellerID = seller.Seller.ID
	h.addOtherSeller(t)
	hash, err := console.HashPassword(h.password)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range principals {
		id := uuid.Must(uuid.NewV7())
		var sellerID *uuid.UUID
		if p.kind == console.SellerUser {
			sellerID = &seller.Seller.ID
		}
		if err := store.CreateConsoleUser(t.Context(), dbgen.CreateConsoleUserParams{
			ID: id, Kind: string(p.kind), SellerID: sellerID, Email: p.email, Role: string(p.role), PasswordHash: hash,
			TotpSecret: ring.Seal(h.secret, id[:]),
		}); err != nil {
			t.Fatal(err)
		}
	}
	h.app = fiber.New()
	// No Temporal: the routes' requests name records that do not exist,
	// so no workflow is reached.
	all := testenv.Services(t, testenv.Config(t), store, nil)
	err = consoleapi.Mount(h.app.Group(consoleapi.Base), consoleapi.Deps{
		Service: &services.Console{Accounts: h.accounts, Offers: &services.Offers{Store: store}, Orders: &services.Orders{Store: store},
			Contracts: &services.Contracts{Store: store}, Catalog: &services.Catalog{Store: store},
			Invoices: &services.Invoices{Store: store}, Collections: &services.Collections{Store: store},
			Webhooks: all.Webhooks, CatalogImports: all.CatalogImports, Sellers: &services.Sellers{Store: store},
			ConsoleURL: "https://tenure.example", OperatorSellers: &services.ConsoleSellers{Store: store, Accounts: h.accounts}},
		Assets: consoleapi.Base + "/assets/test", Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// signIn opens a session of an account.
func (h *rightsHarness) signIn(t *testing.T, email string) console.Session {
	t.Helper()
	h.now = h.now.Add(31 * time.Second)
	s, err := h.accounts.SignIn(t.Context(), email, h.password, console.TOTPCode(h.secret, console.TOTPStep(h.now)), "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// addOtherSeller registers "Other Seller" with records of its own, whose
// ids fill the routes' parameters: a user (an admin, invited) and an API
// credential. A helper adding a route parameter adds its record here.
func (h *rightsHarness) addOtherSeller(t *testing.T) {
	t.Helper()
	ctx := t.Context()
	store := h.accounts.Store
	other, err := auth.CreateSeller(ctx, store, "Other Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	invited, err := h.accounts.InviteSellerUser(ctx, other.Seller.ID, "other-admin@example.com", console.Admin, "rights test")
	if err != nil {
		t.Fatal(err)
	}
	h.foreign = map[string]string{
		"user":       invited.User.ID.String(),
		"credential": other.Credentials.ClientID,
	}
	h.foreignState = append(h.foreignState,
		func(t *testing.T) any {
			users, err := h.accounts.SellerUsers(t.Context(), other.Seller.ID)
			if err != nil {
				t.Fatal(err)
			}
			return users
		},
		func(t *testing.T) any {
			creds, err := store.ListSellerCredentials(t.Context(), other.Seller.ID)
			if err != nil {
				t.Fatal(err)
			}
			return creds
		})
}

// request is a route's request with its parameters filled in: a
// language that exists, the other seller's records (h.foreign), random
// ids for the rest.
func (h *rightsHarness) request(r consoleapi.RouteRights, s *console.Session, form url.Values) *http.Request {
	segments := strings.Split(consoleapi.Base+r.Path, "/")
	for i, seg := range segments {
		name, ok := strings.CutPrefix(seg, ":")
		switch {
		case !ok:
		case name == "lang":
			segments[i] = "de"
		case h.foreign[name] != "":
			segments[i] = h.foreign[name]
		default:
			segments[i] = uuid.NewString()
		}
	}
	path := strings.Join(segments, "/")
	var body io.Reader
	form = maps.Clone(form)
	if r.Method != fiber.MethodGet {
		if s != nil && !form.Has(consoleapi.CSRFField) {
			form.Set(consoleapi.CSRFField, s.CSRF)
		}
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(r.Method, path, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	if s != nil {
		req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: s.Token})
	}
	return req
}

func (h *rightsHarness) do(t *testing.T, req *http.Request) *http.Response {
	t.Helper()
	resp, err := h.app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// Every route of the table, for a signed-out browser, an htmx request and
// every kind and role of account: refused where the table says so (sign
// in, 401 or 403), let through where it allows.
func TestRightsFollowTheRouteTable(t *testing.T) {
	h := newRightsHarness(t)
	for _, r := range consoleapi.RouteTable() {
		name := r.Method + " " + r.Path
		form := url.Values{"reason": {"rights test"}}
		if !r.Public {
			resp := h.do(t, h.request(r, nil, form))
			if r.Method == fiber.MethodGet {
				if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, consoleapi.Base+"/sign-in?next=") {
					t.Errorf("%s signed out: %d to %q, want 303 to the sign-in page", name, resp.StatusCode, loc)
				}
				htmx := h.request(r, nil, form)
				htmx.Header.Set("HX-Request", "true")
				if resp := h.do(t, htmx); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("HX-Redirect") != consoleapi.Base+"/sign-in" {
					t.Errorf("%s signed out with htmx: %d, want 401 with HX-Redirect", name, resp.StatusCode)
				}
			} else if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s signed out: %d, want 401", name, resp.StatusCode)
			}
		}
		for _, p := range principals {
			s := h.signIn(t, p.email)
			resp := h.do(t, h.request(r, &s, form))
			allowed := r.Allows(console.User{Kind: p.kind, Role: p.role})
			refused := resp.StatusCode == http.StatusForbidden ||
				// A public route's 401 is its own answer (the sign-in's wrong password), not a refusal.
				(!r.Public && resp.StatusCode == http.StatusUnauthorized)
			switch {
			case allowed && refused:
				t.Errorf("%s as %s %s: %d, want it allowed", name, p.kind, p.role, resp.StatusCode)
			case !allowed && resp.StatusCode != http.StatusForbidden:
				t.Errorf("%s as %s %s: %d, want 403", name, p.kind, p.role, resp.StatusCode)
			}
			if cc := resp.Header.Get("Cache-Control"); resp.StatusCode < 300 && cc != "no-store" {
				t.Errorf("%s as %s %s: Cache-Control %q, want no-store", name, p.kind, p.role, cc)
			}
		}
	}
}

// A changing request is refused (403, nothing done) without its session's
// CSRF token, with another session's, or sent from another site.
func TestChangingRequestsNeedCSRFAndTheirOrigin(t *testing.T) {
	h := newRightsHarness(t)
	admin := h.signIn(t, "admin@example.com")
	other := h.signIn(t, "reviewer@example.com")
	signOut := consoleapi.RouteRights{Method: fiber.MethodPost, Path: "/sign-out"}
	for name, tune := range map[string]func(*http.Request, url.Values){
		"no token":         func(*http.Request, url.Values) {},
		"another's token":  func(_ *http.Request, f url.Values) { f.Set(consoleapi.CSRFField, other.CSRF) },
		"cross-site fetch": func(r *http.Request, _ url.Values) { r.Header.Set("Sec-Fetch-Site", "cross-site") },
		"another origin": func(r *http.Request, _ url.Values) {
			r.Header.Del("Sec-Fetch-Site")
			r.Header.Set("Origin", "https://evil.example")
		},
	} {
		form := url.Values{consoleapi.CSRFField: {""}}
		if name != "no token" {
			form.Del(consoleapi.CSRFField)
		}
		req := h.request(signOut, &admin, form)
		probe := url.Values{}
		tune(req, probe)
		if probe.Has(consoleapi.CSRFField) {
			req = h.request(signOut, &admin, probe)
		}
		if resp := h.do(t, req); resp.StatusCode != http.StatusForbidden {
			t.Errorf("sign-out with %s: %d, want 403", name, resp.StatusCode)
		}
	}
	if _, err := h.accounts.Session(t.Context(), admin.Token); err != nil {
		t.Errorf("a refused sign-out ended the session: %v", err)
	}
	// The header htmx can send serves as well as the form field.
	req := h.request(signOut, &admin, url.Values{consoleapi.CSRFField: {""}})
	req.Header.Set(consoleapi.CSRFHeader, admin.CSRF)
	if resp := h.do(t, req); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-out with the CSRF header: %d, want 303", resp.StatusCode)
	}
	if _, err := h.accounts.Session(t.Context(), admin.Token); err == nil {
		t.Error("the session lives on after signing out")
	}
}

// signInForm posts the sign-in form.
func signInForm(email, password, code string) *http.Request {
	form := url.Values{"email": {email}, "password": {password}, "code": {code}}
	req := httptest.NewRequest(fiber.MethodPost, consoleapi.Base+"/sign-in?next=%2Fconsole%2Faudit", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return req
}

// Signing in sets the session cookie the browser keeps to this origin
// only and returns to the page the sign-in interrupted; failures are
// answered 401, and after five of an account 429 with Retry-After.
func TestSignInOverHTTP(t *testing.T) {
	h := newRightsHarness(t)
	h.now = time.Now()
	resp := h.do(t, signInForm("admin@example.com", h.password, console.TOTPCode(h.secret, console.TOTPStep(h.now))))
	cookie := resp.Header.Get("Set-Cookie")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/console/audit" {
		t.Errorf("signing in: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, want := range []string{consoleapi.SessionCookie + "=", "path=/", "secure", "HttpOnly", "SameSite=Strict"} {
		if !strings.Contains(strings.ToLower(cookie), strings.ToLower(want)) {
			t.Errorf("the session cookie %q lacks %s", cookie, want)
		}
	}
	if strings.Contains(strings.ToLower(cookie), "domain=") {
		t.Errorf("the session cookie %q names a domain", cookie)
	}
	for i := range 5 {
		if resp := h.do(t, signInForm("finance@example.com", "not the password", "123456")); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d, want 401", i+1, resp.StatusCode)
		}
	}
	resp = h.do(t, signInForm("finance@example.com", h.password, console.TOTPCode(h.secret, console.TOTPStep(h.now))))
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "900" || !strings.Contains(string(body), "Wait 15 minutes") {
		t.Errorf("after five failures: %d, Retry-After %q\n%.300s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
}

// Every route open to seller users, tried by each seller role of one
// seller with the ids of another seller's records, answers 404 (or 403)
// and changes none of them.
func TestSellerUsersSeeOnlyTheirSellersRecords(t *testing.T) {
	h := newRightsHarness(t)
	before := make([]any, len(h.foreignState))
	for i, read := range h.foreignState {
		before[i] = read(t)
	}
	tried := 0
	for _, r := range consoleapi.RouteTable() {
		if r.Public || !strings.Contains(r.Path, "/:") {
			continue
		}
		for _, p := range principals {
			u := console.User{Kind: p.kind, Role: p.role}
			if p.kind != console.SellerUser || !r.Allows(u) {
				continue
			}
			tried++
			s := h.signIn(t, p.email)
			resp := h.do(t, h.request(r, &s, url.Values{"reason": {"rights test"}}))
			if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusForbidden {
				t.Errorf("%s %s as seller %s with another seller's ids: %d, want 404 or 403", r.Method, r.Path, p.role, resp.StatusCode)
			}
		}
	}
	if tried == 0 {
		t.Fatal("no seller route names a record")
	}
	for i, read := range h.foreignState {
		if after := read(t); !reflect.DeepEqual(after, before[i]) {
			t.Errorf("the other seller's records changed:\nbefore %+v\nafter  %+v", before[i], after)
		}
	}
}
