package console_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	consoleapi "github.com/tenurehq/tenure/api/console"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/webhook"
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

// newRightsHarness is the harness without Temporal: the other seller has
// a user and a credential, and every other record a route names is a
// random id, so no workflow is reached.
func newRightsHarness(t *testing.T) *rightsHarness {
	t.Helper()
	return buildRightsHarness(t, false)
}

// newRecordsHarness is the harness on a real Temporal dev server and
// worker, whose other seller has a record of every kind a seller route
// names (see addOtherSellersRecords): slower, for the sweep of seller
// routes with another seller's ids.
func newRecordsHarness(t *testing.T) *rightsHarness {
	t.Helper()
	return buildRightsHarness(t, true)
}

func buildRightsHarness(t *testing.T, withRecords bool) *rightsHarness {
	t.Helper()
	store := testenv.Database(t)
	cfg := testenv.Config(t)
	var tc client.Client
	if withRecords {
		tc = testenv.Temporal(t)
		testenv.Worker(t, cfg, store, tc)
	}
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
	all := testenv.Services(t, cfg, store, tc)
	other := h.addOtherSeller(t)
	if withRecords {
		h.addOtherSellersRecords(t, cfg, all, other)
	}
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
	err = consoleapi.Mount(h.app.Group(consoleapi.Base), consoleapi.Deps{
		Service: &services.Console{Accounts: h.accounts, Offers: all.Offers, Orders: all.Orders,
			Contracts: all.Contracts, Catalog: all.Catalog, Invoices: all.Invoices, Collections: all.Collections,
			Webhooks: all.Webhooks, CatalogImports: all.CatalogImports, Sellers: all.Sellers,
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

// addOtherSeller registers "Other Seller" with the records of its own
// that need no workflow, whose ids fill the routes' parameters: a user
// (an admin, invited), one of that user's passkeys and an API
// credential. It returns the seller's id.
func (h *rightsHarness) addOtherSeller(t *testing.T) uuid.UUID {
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
	passkey := []byte("other seller's passkey")
	if err := store.CreateConsolePasskey(ctx, dbgen.CreateConsolePasskeyParams{
		ID: passkey, UserID: invited.User.ID, Name: "Other's key", PublicKey: []byte("a public key"), Transports: []string{}, Aaguid: make([]byte, 16),
		AttestationType: "none", CreatedAt: h.now,
	}); err != nil {
		t.Fatal(err)
	}
	h.foreign = map[string]string{
		"user":       invited.User.ID.String(),
		"passkey":    base64.RawURLEncoding.EncodeToString(passkey),
		"credential": other.Credentials.ClientID,
	}
	h.readForeign(
		func(ctx context.Context) (any, error) { return h.accounts.SellerUsers(ctx, other.Seller.ID) },
		func(ctx context.Context) (any, error) { return store.ListConsolePasskeys(ctx, invited.User.ID) },
		func(ctx context.Context) (any, error) { return store.ListSellerCredentials(ctx, other.Seller.ID) })
	return other.Seller.ID
}

// readForeign adds readers of the other seller's records to foreignState.
func (h *rightsHarness) readForeign(readers ...func(context.Context) (any, error)) {
	for _, read := range readers {
		h.foreignState = append(h.foreignState, func(t *testing.T) any {
			t.Helper()
			v, err := read(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			return v
		})
	}
}

// addOtherSellersRecords gives the other seller, through the same
// services and workflows as the Seller API, a record of every other kind
// a seller route names: an open offer, an order shipped from an accepted
// offer and its contract, a webhook endpoint and its ping event, and a
// catalog import waiting for its file.
func (h *rightsHarness) addOtherSellersRecords(t *testing.T, cfg *config.Config, all *services.Services, sellerID uuid.UUID) {
	t.Helper()
	ctx := t.Context()
	testenv.Catalog(t, all.Offers.Store, cfg, sellerID, "EUR", testenv.Workstation())
	open := h.otherOffer(t, all, sellerID, "rights-open")
	// A new order, which an acknowledgement, confirmation, rejection or
	// shipment would change, and a shipped one, whose running contract a
	// return, buy-out, extension or termination would.
	newOrder := h.otherOrder(t, all, sellerID, "rights-ordered")
	shipped := h.otherOrder(t, all, sellerID, "rights-shipped")
	if _, err := all.Orders.Accept(ctx, sellerID, shipped); err != nil {
		t.Fatal(err)
	}
	ref := testenv.Workstation().References[0]
	if err := all.Orders.Ship(ctx, sellerID, shipped, orders.Shipment{SerialNumbers: []orders.SerialNumber{{
		Source: ref.Source, Reference: ref.Reference, SerialNumber: "OTHER-1",
	}}}); err != nil {
		t.Fatal(err)
	}
	// The contract is written awaiting delivery; the shipment signals its
	// workflow, which starts the term a moment later. The snapshot is of
	// the running contract, which nothing but a route changes any more.
	var contract contracts.Stored
	eventually(t, "the shipped order has a running contract", func() bool {
		list, _, err := all.Contracts.List(ctx, sellerID, contracts.ListFilter{OrderID: &shipped, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(list) > 0 {
			contract = list[0]
		}
		return len(list) > 0 && contract.Status == contracts.Running
	})
	// Delivered nowhere: the relay's retries change the event's attempts,
	// never its delivery runs, which only a redelivery adds.
	endpoint, _, err := all.Webhooks.CreateEndpoint(ctx, sellerID, webhook.EndpointInput{URL: "https://hooks.other-seller.example/tenure"})
	if err != nil {
		t.Fatal(err)
	}
	ping, err := all.Webhooks.Ping(ctx, sellerID, endpoint.ID)
	if err != nil {
		t.Fatal(err)
	}
	upload, err := all.CatalogImports.Create(ctx, sellerID, "products.csv")
	if err != nil {
		t.Fatal(err)
	}
	maps.Copy(h.foreign, map[string]string{
		"offer": open.String(), "order": newOrder.String(), "contract": contract.ID.String(),
		"endpoint": endpoint.ID.String(), "event": ping.ID.String(), "import": upload.Job.ID.String(),
	})
	h.readForeign(
		func(ctx context.Context) (any, error) {
			o, err := all.Offers.Get(ctx, sellerID, open)
			return o.Row.Status, err
		},
		func(ctx context.Context) (any, error) {
			var out []string
			for _, id := range []uuid.UUID{newOrder, shipped} {
				o, err := all.Orders.Get(ctx, sellerID, id)
				if err != nil {
					return nil, err
				}
				out = append(out, fmt.Sprintf("order %s %s", id, o.Row.Status))
				for _, a := range o.Assets {
					out = append(out, fmt.Sprintf("asset %s %s", a.ID, a.Status))
				}
			}
			return out, nil
		},
		func(ctx context.Context) (any, error) {
			c, err := all.Contracts.Get(ctx, sellerID, contract.ID)
			return c.Status, err
		},
		func(ctx context.Context) (any, error) {
			list, err := all.Webhooks.ListEndpoints(ctx, sellerID)
			var out []string
			for _, e := range list {
				out = append(out, fmt.Sprintf("%s %s disabled=%t", e.ID, e.URL, e.DisabledAt != nil))
			}
			return out, err
		},
		func(ctx context.Context) (any, error) {
			ev, err := all.Webhooks.Event(ctx, sellerID, ping.ID, false)
			runs := map[uuid.UUID]int32{}
			for _, d := range ev.Deliveries {
				runs[d.EndpointID] = d.Run
			}
			return runs, err
		},
		func(ctx context.Context) (any, error) {
			job, err := all.CatalogImports.Get(ctx, sellerID, upload.Job.ID)
			return job.Status, err
		})
}

// otherOrder is the order of an offer of the other seller's, accepted.
func (h *rightsHarness) otherOrder(t *testing.T, all *services.Services, sellerID uuid.UUID, reference string) uuid.UUID {
	t.Helper()
	ctx := t.Context()
	offerID := h.otherOffer(t, all, sellerID, reference)
	if err := all.Offers.SubmitForReview(ctx, sellerID, offerID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the offer is decided", func() bool {
		o, err := all.Offers.Get(ctx, sellerID, offerID)
		if err != nil {
			t.Fatal(err)
		}
		if offers.Status(o.Row.Status) == offers.PendingReview {
			if err := all.Offers.Accept(ctx, sellerID, offerID); err != nil {
				t.Fatal(err)
			}
		}
		return offers.Status(o.Row.Status) == offers.Accepted
	})
	var orderID uuid.UUID
	eventually(t, "the accepted offer has an order", func() bool {
		row, err := all.Orders.Store.GetOrderByOffer(ctx, dbgen.GetOrderByOfferParams{SellerID: sellerID, OfferID: offerID})
		orderID = row.ID
		return err == nil
	})
	return orderID
}

// otherOffer creates an offer of the other seller's workstation.
func (h *rightsHarness) otherOffer(t *testing.T, all *services.Services, sellerID uuid.UUID, reference string) uuid.UUID {
	t.Helper()
	company := "Other Customer GmbH"
	o, err := all.Offers.Create(t.Context(), sellerID, offers.Request{
		Reference: reference, SalesChannel: "telesales", ExpiresAt: time.Now().Add(time.Hour),
		Customer:        &offers.Customer{Company: &offers.Company{Name: &company}},
		ShippingAddress: &offers.Address{City: "Berlin", CountryCode: "DE", Line1: "Hauptstraße 1", PostalCode: "10115"},
		Lines: []offers.LineRequest{{
			Title: "Workstation", Quantity: 1, Product: testenv.Workstation().References[0],
			Price: offers.PriceRequest{Currency: "EUR", Net: testenv.Workstation().Price.Net},
		}},
	}, offers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return o.Row.ID
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
// in, 401 or 403), let through where it allows. A route naming records
// answers an account it allows 404 (a page) or 4xx (an action), as the
// records are another seller's or none at all; nothing answers 5xx.
func TestRightsFollowTheRouteTable(t *testing.T) {
	h := newRightsHarness(t)
	for _, r := range consoleapi.RouteTable() {
		name := r.Method + " " + r.Path
		form := rightsForm
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
			if resp.StatusCode >= 500 {
				t.Errorf("%s as %s %s: %d, a server error", name, p.kind, p.role, resp.StatusCode)
			}
			// The records it names are another seller's or none at all.
			if allowed && !r.Public && len(recordParams(r.Path)) > 0 {
				if r.Method == fiber.MethodGet && resp.StatusCode != http.StatusNotFound {
					t.Errorf("%s as %s %s naming records not theirs: %d, want 404", name, p.kind, p.role, resp.StatusCode)
				}
				if r.Method != fiber.MethodGet && (resp.StatusCode < 400 || resp.StatusCode >= 500) {
					t.Errorf("%s as %s %s naming records not theirs: %d, want 4xx", name, p.kind, p.role, resp.StatusCode)
				}
			}
			if cc := resp.Header.Get("Cache-Control"); resp.StatusCode < 300 && cc != "no-store" {
				t.Errorf("%s as %s %s: Cache-Control %q, want no-store", name, p.kind, p.role, cc)
			}
		}
	}
}

// recordParams are the parameters of a route's path that name records
// (every one but the language).
func recordParams(path string) []string {
	var out []string
	for seg := range strings.SplitSeq(path, "/") {
		if name, ok := strings.CutPrefix(seg, ":"); ok && name != "lang" {
			out = append(out, name)
		}
	}
	return out
}

// refusal is a changing request sent the way the rights must refuse: the
// route's request by a session s, with other and stranger sessions of the
// same account and of another account at hand.
type refusal struct {
	name string
	// origin says the refusal is of the request's origin, which public
	// routes check too; the others are of the CSRF token, which only
	// signed-in routes carry.
	origin bool
	send   func(h *rightsHarness, r consoleapi.RouteRights, s, other, stranger *console.Session) *http.Request
}

// refusals are the ways a forged form post arrives.
var refusals = []refusal{
	{name: "no token", send: func(h *rightsHarness, r consoleapi.RouteRights, s, _, _ *console.Session) *http.Request {
		req := h.request(r, nil, rightsForm)
		req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: s.Token})
		return req
	}},
	{name: "the token of another session of the account", send: func(h *rightsHarness, r consoleapi.RouteRights, s, other, _ *console.Session) *http.Request {
		return h.request(r, s, withToken(other.CSRF))
	}},
	{name: "another account's token", send: func(h *rightsHarness, r consoleapi.RouteRights, s, _, stranger *console.Session) *http.Request {
		return h.request(r, s, withToken(stranger.CSRF))
	}},
	{name: "a cross-site fetch", origin: true, send: func(h *rightsHarness, r consoleapi.RouteRights, s, _, _ *console.Session) *http.Request {
		req := h.request(r, s, rightsForm)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		return req
	}},
	{name: "another origin", origin: true, send: func(h *rightsHarness, r consoleapi.RouteRights, s, _, _ *console.Session) *http.Request {
		req := h.request(r, s, rightsForm)
		req.Header.Del("Sec-Fetch-Site")
		req.Header.Set("Origin", "https://evil.example")
		return req
	}},
}

// rightsForm is what the sweeps post: a reason, which actions asking for
// one need, and nothing else.
var rightsForm = url.Values{"reason": {"rights test"}}

// withToken is rightsForm with a CSRF token.
func withToken(token string) url.Values {
	form := maps.Clone(rightsForm)
	form.Set(consoleapi.CSRFField, token)
	return form
}

// state is what a refused request must leave as it was: the audit log's
// length (every changing action is written to it), the own seller's users
// and credentials, the other seller's records, and whether a session
// lives.
func (h *rightsHarness) state(t *testing.T, s *console.Session) []any {
	t.Helper()
	var audited int64
	if err := h.accounts.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM console_audit").Scan(&audited); err != nil {
		t.Fatal(err)
	}
	users, err := h.accounts.SellerUsers(t.Context(), h.sellerID)
	if err != nil {
		t.Fatal(err)
	}
	creds, err := h.accounts.Store.ListSellerCredentials(t.Context(), h.sellerID)
	if err != nil {
		t.Fatal(err)
	}
	out := []any{audited, users, creds}
	if s != nil {
		_, err := h.accounts.Session(t.Context(), s.Token)
		out = append(out, err == nil)
	}
	for _, read := range h.foreignState {
		out = append(out, read(t))
	}
	return out
}

// Every changing route of the table is refused (403, nothing done, not
// even an audit entry) without its session's CSRF token, with another
// session's, or sent from another site; public ones, which have no
// session, from another site. The same request done right is not
// refused, so the 403s are the CSRF and origin checks' and not a role's.
func TestChangingRequestsNeedCSRFAndTheirOrigin(t *testing.T) {
	h := newRightsHarness(t)
	tried := 0
	for _, r := range consoleapi.RouteTable() {
		if r.Method == fiber.MethodGet {
			continue
		}
		name := r.Method + " " + r.Path
		var s, other, stranger *console.Session
		if !r.Public {
			i := slices.IndexFunc(principals, func(p principal) bool { return r.Allows(console.User{Kind: p.kind, Role: p.role}) })
			if i < 0 {
				t.Errorf("%s: no principal may use it, so its CSRF checks are untried; add one to principals", name)
				continue
			}
			sessions := make([]console.Session, 3)
			for j, email := range []string{principals[i].email, principals[i].email, principals[(i+1)%len(principals)].email} {
				sessions[j] = h.signIn(t, email)
			}
			s, other, stranger = &sessions[0], &sessions[1], &sessions[2]
		}
		before := h.state(t, s)
		for _, f := range refusals {
			if r.Public && !f.origin {
				continue
			}
			tried++
			if resp := h.do(t, f.send(h, r, s, other, stranger)); resp.StatusCode != http.StatusForbidden {
				t.Errorf("%s with %s: %d, want 403", name, f.name, resp.StatusCode)
			}
		}
		if after := h.state(t, s); !reflect.DeepEqual(after, before) {
			t.Errorf("%s: refused requests changed something:\nbefore %+v\nafter  %+v", name, before, after)
		}
		if resp := h.do(t, h.request(r, s, rightsForm)); resp.StatusCode == http.StatusForbidden || resp.StatusCode >= 500 {
			t.Errorf("%s with its token from its origin: %d, want it let through to its handler", name, resp.StatusCode)
		}
	}
	if tried == 0 {
		t.Fatal("the route table has no changing route")
	}
}

// The header htmx can send serves as well as the form field.
func TestTheCSRFHeaderServesAsTheField(t *testing.T) {
	h := newRightsHarness(t)
	admin := h.signIn(t, "admin@example.com")
	signOut := consoleapi.RouteRights{Method: fiber.MethodPost, Path: "/sign-out"}
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
// seller with the ids of another seller's records (a record of every kind
// the routes name, made through the workflows), answers 404 (or 403) and
// changes none of them. A route naming a kind of record the other seller
// has none of fails the test until addOtherSellersRecords makes one.
func TestSellerUsersSeeOnlyTheirSellersRecords(t *testing.T) {
	h := newRecordsHarness(t)
	before := make([]any, len(h.foreignState))
	for i, read := range h.foreignState {
		before[i] = read(t)
	}
	tried := 0
	for _, r := range consoleapi.RouteTable() {
		if r.Public || len(recordParams(r.Path)) == 0 {
			continue
		}
		for _, p := range principals {
			u := console.User{Kind: p.kind, Role: p.role}
			if p.kind != console.SellerUser || !r.Allows(u) {
				continue
			}
			for _, param := range recordParams(r.Path) {
				if h.foreign[param] == "" {
					t.Errorf("%s %s names :%s, of which the other seller has no record; add one to addOtherSellersRecords", r.Method, r.Path, param)
				}
			}
			tried++
			s := h.signIn(t, p.email)
			resp := h.do(t, h.request(r, &s, rightsForm))
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
