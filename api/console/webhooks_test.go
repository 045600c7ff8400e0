package console_test

import (
	"bytes"
	"context"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	consoleapi "github.com/tenurehq/tenure/api/console"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/csvgen"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
)

// portalStack is Tenure in production (API with the console, workers,
// PostgreSQL, Temporal) with two sellers, whose webhooks go to real
// receivers on 127.0.0.1.
type portalStack struct {
	url    string
	svc    *services.Services
	client *http.Client
}

func newPortalStack(t *testing.T) *portalStack {
	t.Helper()
	cfg := testenv.Config(t)
	cfg.Environment = config.Production
	cfg.Webhooks.AllowPrivateAddresses = true
	store := testenv.Database(t)
	tc := testenv.Temporal(t)
	testenv.Worker(t, cfg, store, tc)
	return &portalStack{
		url: testenv.API(t, cfg, store, tc), svc: testenv.Services(t, cfg, store, tc),
		client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
}

// seller registers a seller and returns its id.
func (s *portalStack) seller(t *testing.T, name string) uuid.UUID {
	t.Helper()
	created, err := auth.CreateSeller(t.Context(), s.svc.Webhooks.Store, name, "EUR")
	if err != nil {
		t.Fatal(err)
	}
	return created.Seller.ID
}

// signedIn is a console session of an account.
type signedIn struct {
	console.Session
	s *portalStack
}

// signIn creates an account (a seller user when sellerID is set, else an
// operator) and signs it in with its password and TOTP code.
func (s *portalStack) signIn(t *testing.T, sellerID *uuid.UUID, email string, role console.Role) signedIn {
	t.Helper()
	accounts := s.svc.Console.Accounts
	const password = "a long enough password"
	var acct console.NewAccount
	var err error
	if sellerID != nil {
		acct, err = accounts.CreateSellerUser(t.Context(), *sellerID, email, role, password)
	} else {
		acct, err = accounts.CreateOperator(t.Context(), email, role, password)
	}
	if err != nil {
		t.Fatal(err)
	}
	secret := testenv.TOTPSecret(t, acct.ProvisioningURI)
	sess, err := accounts.SignIn(t.Context(), email, password, console.TOTPCode(secret, console.TOTPStep(time.Now())), "192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	return signedIn{Session: sess, s: s}
}

// answer is a response with its body read.
type answer struct {
	status   int
	location string
	header   http.Header
	body     string
}

// send makes a request of the session; a POST carries its CSRF token
// from the console's own origin.
func (u signedIn) send(t *testing.T, method, path string, body io.Reader, contentType string) answer {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, u.s.url+consoleapi.Base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: u.Token})
	if method == http.MethodPost {
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set(consoleapi.CSRFHeader, u.CSRF)
	}
	resp, err := u.s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: resp.StatusCode, location: resp.Header.Get("Location"), header: resp.Header, body: string(raw)}
}

func (u signedIn) get(t *testing.T, path string) answer {
	t.Helper()
	return u.send(t, http.MethodGet, path, nil, "")
}

func (u signedIn) post(t *testing.T, path string, form url.Values) answer {
	t.Helper()
	return u.send(t, http.MethodPost, path, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
}

// eventually polls check until it holds, or fails the test after 30 s.
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !check() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The portal's webhooks: an admin adds an endpoint (its secret shown
// once), sends a test ping and redelivers it, both reaching a real
// receiver; an agent reads the event log but neither the endpoints nor a
// secret; another seller's admin gets 404 for every id of the first
// seller, changing nothing; operators see the failing endpoint first and
// redeliver an event too; every action is in the audit log.
func TestPortalWebhooks(t *testing.T) {
	s := newPortalStack(t)
	ok := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	failing := testenv.NewReceiver(t, testenv.Always(http.StatusInternalServerError))
	sellerA, sellerB := s.seller(t, "Webhook Handel GmbH"), s.seller(t, "Andere Händler AG")
	admin := s.signIn(t, &sellerA, "admin@a.example", console.Admin)
	agent := s.signIn(t, &sellerA, "agent@a.example", console.Agent)
	other := s.signIn(t, &sellerB, "admin@b.example", console.Admin)
	finance := s.signIn(t, nil, "finance@ops.example", console.Finance)

	// A field the endpoint cannot have is named, and nothing is added.
	if a := admin.post(t, "/webhooks/endpoints", url.Values{"url": {"ftp://example.com/hook"}}); a.status != http.StatusUnprocessableEntity || !strings.Contains(a.body, "url") {
		t.Errorf("a bad URL: %d\n%.400s", a.status, a.body)
	}
	a := admin.post(t, "/webhooks/endpoints", url.Values{"url": {ok.URL}, "description": {"ERP"}})
	if a.status != http.StatusCreated || !strings.Contains(a.body, "whsec_") {
		t.Fatalf("adding an endpoint: %d\n%.600s", a.status, a.body)
	}
	endpoints, err := s.svc.Webhooks.ListEndpoints(t.Context(), sellerA)
	if err != nil || len(endpoints) != 1 {
		t.Fatalf("seller A's endpoints: %v %v", endpoints, err)
	}
	endpoint := endpoints[0].ID
	if a := admin.get(t, "/webhooks/endpoints"); a.status != http.StatusOK || !strings.Contains(a.body, ok.URL) || strings.Contains(a.body, "whsec_") {
		t.Errorf("the endpoints page shows a secret or lacks the endpoint: %d", a.status)
	}
	if a := agent.get(t, "/webhooks/endpoints"); a.status != http.StatusForbidden {
		t.Errorf("an agent opened the endpoints: %d", a.status)
	}

	a = admin.post(t, "/webhooks/endpoints/"+endpoint.String()+"/ping", nil)
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/console/webhooks/events/") {
		t.Fatalf("ping: %d to %q\n%.400s", a.status, a.location, a.body)
	}
	event := strings.TrimSuffix(strings.TrimPrefix(a.location, "/console/webhooks/events/"), "?done=pinged")
	ok.WaitDelivered(t, 1, 30*time.Second)
	awaitSettled(t, s, sellerA, event)
	page := agent.get(t, "/webhooks/events/"+event)
	if page.status != http.StatusOK || !strings.Contains(page.body, "ping") || !strings.Contains(page.body, "HTTP 200") || strings.Contains(page.body, "/redeliver") {
		t.Errorf("the agent's event page: %d\n%.1500s", page.status, page.body)
	}
	if log := agent.get(t, "/webhooks"); log.status != http.StatusOK || !strings.Contains(log.body, "event-"+event) || strings.Contains(log.body, "whsec_") {
		t.Errorf("the agent's event log: %d", log.status)
	}
	if a := agent.post(t, "/webhooks/events/"+event+"/redeliver", nil); a.status != http.StatusForbidden {
		t.Errorf("an agent redelivered: %d", a.status)
	}

	a = admin.post(t, "/webhooks/events/"+event+"/redeliver", nil)
	if a.status != http.StatusSeeOther {
		t.Fatalf("redeliver: %d\n%.400s", a.status, a.body)
	}
	eventually(t, "the redelivery to reach the receiver", func() bool { return ok.Delivered()[event] == 2 })
	awaitSettled(t, s, sellerA, event)
	if page := admin.get(t, "/webhooks/events/"+event); !strings.Contains(page.body, "run 2, attempt 1") {
		t.Errorf("the event page lacks the redelivery's attempt:\n%.2000s", page.body)
	}

	// Another seller's admin: 404 for each of seller A's ids, nothing sent.
	for _, try := range []struct{ method, path string }{
		{http.MethodGet, "/webhooks/events/" + event},
		{http.MethodPost, "/webhooks/events/" + event + "/redeliver"},
		{http.MethodPost, "/webhooks/endpoints/" + endpoint.String() + "/ping"},
		{http.MethodPost, "/webhooks/endpoints/" + endpoint.String() + "/disable"},
	} {
		if a := other.send(t, try.method, try.path, strings.NewReader(""), "application/x-www-form-urlencoded"); a.status != http.StatusNotFound {
			t.Errorf("seller B %s %s: %d, want 404", try.method, try.path, a.status)
		}
	}
	if got, err := s.svc.Webhooks.GetEndpoint(t.Context(), sellerA, endpoint); err != nil || got.DisabledAt != nil {
		t.Errorf("seller B changed seller A's endpoint: %+v %v", got, err)
	}

	// Seller B's endpoint fails: operators see it first, with its error.
	bad, _, err := s.svc.Webhooks.CreateEndpoint(t.Context(), sellerB, webhook.EndpointInput{URL: failing.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.svc.Webhooks.Ping(t.Context(), sellerB, bad.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the failing endpoint's first attempt", func() bool { return len(failing.Requests()) > 0 })
	var health answer
	eventually(t, "the health page to show the failure", func() bool {
		health = finance.get(t, "/webhooks/health")
		return strings.Contains(health.body, "HTTP 500")
	})
	if i, j := strings.Index(health.body, failing.URL), strings.Index(health.body, ok.URL); i < 0 || j < 0 || i > j {
		t.Errorf("the failing endpoint is not listed before the healthy one (%d, %d)", i, j)
	}
	if !strings.Contains(health.body, "100.0 %") {
		t.Errorf("the health page lacks the failing endpoint's rate:\n%.2000s", health.body)
	}
	if a := admin.get(t, "/webhooks/health"); a.status != http.StatusForbidden {
		t.Errorf("a seller admin opened webhooks health: %d", a.status)
	}
	deliveries := finance.get(t, "/webhooks/health/"+endpoint.String())
	if deliveries.status != http.StatusOK || !strings.Contains(deliveries.body, event) {
		t.Errorf("the endpoint's deliveries: %d", deliveries.status)
	}
	a = finance.post(t, "/webhooks/health/events/"+event+"/redeliver", url.Values{"endpoint": {endpoint.String()}})
	if a.status != http.StatusSeeOther || a.location != "/console/webhooks/health/"+endpoint.String()+"?done=redelivered" {
		t.Fatalf("an operator's redelivery: %d to %q\n%.400s", a.status, a.location, a.body)
	}
	eventually(t, "the operator's redelivery to reach the receiver", func() bool { return ok.Delivered()[event] == 3 })

	if a := admin.post(t, "/webhooks/endpoints/"+endpoint.String()+"/disable", nil); a.status != http.StatusSeeOther {
		t.Errorf("disabling: %d", a.status)
	}
	if got, err := s.svc.Webhooks.GetEndpoint(t.Context(), sellerA, endpoint); err != nil || got.DisabledAt == nil {
		t.Errorf("the endpoint is not disabled: %+v %v", got, err)
	}

	want := map[string][2]int{ // action: succeeded, refused
		"webhook.endpoint_create": {1, 1}, "webhook.ping": {1, 1}, "webhook.redeliver": {2, 1}, "webhook.endpoint_disable": {1, 1},
	}
	got := auditCounts(t, s)
	for action, n := range want {
		if got[action] != n {
			t.Errorf("audit %s: %d succeeded, %d refused; want %v", action, got[action][0], got[action][1], n)
		}
	}
}

// awaitSettled waits until no delivery of an event is pending.
func awaitSettled(t *testing.T, s *portalStack, sellerID uuid.UUID, event string) {
	t.Helper()
	id := uuid.MustParse(event)
	eventually(t, "event "+event+" to be delivered", func() bool {
		ev, err := s.svc.Webhooks.Event(context.WithoutCancel(t.Context()), sellerID, id, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ev.Deliveries {
			if d.Status == webhook.DeliveryPending {
				return false
			}
		}
		return len(ev.Deliveries) > 0
	})
}

// auditCounts counts the audit log's entries by action: succeeded, refused.
func auditCounts(t *testing.T, s *portalStack) map[string][2]int {
	t.Helper()
	entries, err := s.svc.Console.Accounts.AuditLog(t.Context(), "", time.Time{}, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2]int{}
	for _, e := range entries {
		n := out[e.Action]
		switch e.Outcome {
		case console.Succeeded:
			n[0]++
		case console.Refused:
			n[1]++
		}
		out[e.Action] = n
	}
	return out
}

// The portal's catalog upload: an admin's CSV becomes an import through
// the same workflow as the Seller API's, whose progress fragment ends
// full with the counts of the file, and whose error file downloads;
// another seller's admin gets 404, an agent 403.
func TestPortalCatalogUpload(t *testing.T) {
	s := newPortalStack(t)
	sellerA, sellerB := s.seller(t, "Katalog GmbH"), s.seller(t, "Fremd GmbH")
	admin := s.signIn(t, &sellerA, "catalog-admin@a.example", console.Admin)
	agent := s.signIn(t, &sellerA, "catalog-agent@a.example", console.Agent)
	other := s.signIn(t, &sellerB, "catalog-admin@b.example", console.Admin)

	var file bytes.Buffer
	stats, err := csvgen.Generate(&file, 400, 25)
	if err != nil {
		t.Fatal(err)
	}
	if a := admin.send(t, http.MethodPost, "/catalog/imports", strings.NewReader(""), "application/x-www-form-urlencoded"); a.status != http.StatusUnprocessableEntity {
		t.Errorf("an upload without a file: %d", a.status)
	}
	body, contentType := multipartFile(t, "products.csv", file.Bytes())
	if a := agent.send(t, http.MethodPost, "/catalog/imports", bytes.NewReader(body), contentType); a.status != http.StatusForbidden {
		t.Errorf("an agent uploaded: %d", a.status)
	}
	a := admin.send(t, http.MethodPost, "/catalog/imports", bytes.NewReader(body), contentType)
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/console/catalog/imports/") {
		t.Fatalf("uploading: %d to %q\n%.600s", a.status, a.location, a.body)
	}
	importPath := strings.TrimPrefix(a.location, consoleapi.Base)
	var progress answer
	eventually(t, "the import to complete", func() bool {
		progress = admin.get(t, importPath+"/progress")
		return strings.Contains(progress.body, `data-status="completed"`)
	})
	rows := strconv.Itoa(stats.Rows)
	for _, want := range []string{`max="1" value="1"`, rows + " / " + rows, `id="import-failed">` + strconv.Itoa(stats.Invalid)} {
		if !strings.Contains(progress.body, want) {
			t.Errorf("the finished progress lacks %q:\n%s", want, progress.body)
		}
	}
	if strings.Contains(progress.body, "hx-trigger") || strings.Contains(progress.body, "<html") {
		t.Errorf("the finished fragment still polls, or is a whole page:\n%s", progress.body)
	}
	if page := admin.get(t, importPath); page.status != http.StatusOK || !strings.Contains(page.body, "products.csv") {
		t.Errorf("the import's page: %d", page.status)
	}
	errorsFile := admin.get(t, importPath+"/errors.csv")
	if errorsFile.status != http.StatusOK || !strings.HasPrefix(errorsFile.header.Get("Content-Type"), "text/csv") ||
		strings.Count(strings.TrimSpace(errorsFile.body), "\n") < stats.Invalid {
		t.Errorf("the error file: %d %q, %d lines for %d invalid rows", errorsFile.status, errorsFile.header.Get("Content-Type"),
			strings.Count(errorsFile.body, "\n"), stats.Invalid)
	}
	importID := strings.TrimPrefix(importPath, "/catalog/imports/")
	if list := admin.get(t, "/catalog/imports"); !strings.Contains(list.body, `id="import-`+importID) || !strings.Contains(list.body, "products.csv") {
		t.Errorf("the upload page does not list the import:\n%.1500s", list.body)
	}
	if list := other.get(t, "/catalog/imports"); list.status != http.StatusOK || strings.Contains(list.body, importID) {
		t.Errorf("seller B's upload page lists seller A's import: %d", list.status)
	}
	for _, path := range []string{importPath, importPath + "/progress", importPath + "/errors.csv"} {
		if a := other.get(t, path); a.status != http.StatusNotFound {
			t.Errorf("seller B GET %s: %d, want 404", path, a.status)
		}
	}
	if got := auditCounts(t, s)["catalog.import"]; got != [2]int{1, 1} {
		t.Errorf("audit catalog.import: %v, want one succeeded and one refused", got)
	}
}

// multipartFile is a form with the CSV file as its file field.
func multipartFile(t *testing.T, name string, content []byte) ([]byte, string) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, err := w.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(content); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return body.Bytes(), w.FormDataContentType()
}

// The event log pages newest first by keyset: 50 events, then a link to
// the older ones, whose page holds the rest and no further link.
func TestPortalEventLogPages(t *testing.T) {
	s := newPortalStack(t)
	sellerID := s.seller(t, "Viele Ereignisse GmbH")
	agent := s.signIn(t, &sellerID, "pages-agent@a.example", console.Agent)
	var ids []uuid.UUID
	for range services.WebhooksPageSize + 5 {
		id := uuid.Must(uuid.NewV7())
		ids = append(ids, id)
		if err := s.svc.Webhooks.Store.InsertEvent(t.Context(), dbgen.InsertEventParams{
			ID: id, SellerID: sellerID, Type: webhook.Ping, ObjectID: id, Payload: []byte(`{}`),
		}); err != nil {
			t.Fatal(err)
		}
	}
	first := agent.get(t, "/webhooks")
	if n := strings.Count(first.body, `id="event-`); n != services.WebhooksPageSize {
		t.Fatalf("the first page shows %d events, want %d", n, services.WebhooksPageSize)
	}
	if !strings.Contains(first.body, "event-"+ids[len(ids)-1].String()) || strings.Contains(first.body, "event-"+ids[4].String()) {
		t.Error("the first page does not start at the newest event")
	}
	older := regexp.MustCompile(`href="(/console/webhooks\?before=[^"]+)"`).FindStringSubmatch(first.body)
	if older == nil {
		t.Fatal("the first page has no link to older events")
	}
	second := agent.get(t, strings.TrimPrefix(html.UnescapeString(older[1]), consoleapi.Base))
	if n := strings.Count(second.body, `id="event-`); n != 5 || strings.Contains(second.body, "before=") {
		t.Errorf("the second page shows %d events (want 5) or links further", n)
	}
	for _, id := range ids[:5] {
		if !strings.Contains(second.body, "event-"+id.String()) {
			t.Errorf("the second page lacks event %s", id)
		}
	}
}
