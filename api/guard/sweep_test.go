package guard_test

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/golang-jwt/jwt/v5"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/contractcheck"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// sweepBodyLimit keeps the oversized bodies of the sweep small; every
// other request of the sweep is below it.
const sweepBodyLimit = 1 << 20

// TestContractSweep sends every operation of seller.yaml the hostile
// requests its schemas suggest (see sweepOp.cases) over a real connection
// to the whole stack, and checks each answer: a 4xx, a status and body
// the published contract allows (the client verifies every response), no
// Go or library internals; and that the refused requests changed no row
// of the database and started no workflow.
func TestContractSweep(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.HTTP.BodyLimit = sweepBodyLimit })
	h.Worker(t)
	base := h.Serve(t)
	sw := sweep{h: h, base: base, client: &http.Client{Transport: contractcheck.Transport(t, nil), Timeout: time.Minute}}
	ids := sw.fixtures(t)

	doc, err := openapi3.NewLoader().LoadFromData(openapi.Seller)
	if err != nil {
		t.Fatal(err)
	}
	var ops []sweepOp
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			s, err := newSweepOp(method, path, op, ids)
			if err != nil {
				t.Fatal(err)
			}
			ops = append(ops, s)
		}
	}
	slices.SortFunc(ops, func(a, b sweepOp) int { return strings.Compare(a.path+a.method, b.path+b.method) })

	workflows := sw.settledWorkflowCount(t)
	start, sent := time.Now(), 0
	for _, op := range ops {
		t.Run(op.method+" "+op.path, func(t *testing.T) {
			before := sw.checksum(t)
			for _, c := range op.cases(sweepBodyLimit) {
				sw.send(t, op, c)
				sent++
			}
			if after := sw.checksum(t); !maps.Equal(before, after) {
				t.Errorf("refused requests changed the database: %s", changedTables(before, after))
			}
		})
	}
	t.Logf("%d requests over %d operations in %v", sent, len(ops), time.Since(start).Round(time.Millisecond))
	if n := sw.settledWorkflowCount(t); n != workflows {
		t.Errorf("refused requests started workflows: %d before the sweep, %d after", workflows, n)
	}
}

// sweep is the stack the sweep runs against and its two sellers.
type sweep struct {
	h      *apitest.Harness
	base   string
	client *http.Client
	// a owns the fixtures; b is another seller.
	a, b apitest.OfferFixture
	// bad are Authorization headers no operation may accept.
	bad map[string]string
}

// fixtures gives seller a one record of every kind a path names, and
// returns their ids for the generated requests.
func (sw *sweep) fixtures(t *testing.T) exampleIDs {
	t.Helper()
	h := sw.h
	for _, f := range []*apitest.OfferFixture{&sw.a, &sw.b} {
		s := h.Seller(t)
		*f = apitest.OfferFixture{Harness: h, Seller: s, Token: h.Token(t, s, "client")}
	}
	sw.a.Catalog(t)
	imported := h.ImportProducts(t, sw.a.Token, apitest.ProductJSON("sku", "sweep", "Sweep product", 1000))
	offer := sw.a.CreateOffer(t, apitest.OfferPayload("sweep-offer"))
	order := sw.a.AcceptedOrder(t, "sweep-order")
	// A contract awaiting delivery: every change of it is refused by its
	// status, unless the sweep's mutation is refused first.
	_, contract := sw.a.ConfirmedContract(t, "sweep-contract")
	_, _, invoice := sw.a.InvoicedContract(t, "sweep-invoice")
	_, payout := sw.a.CompletedOrder(t, "sweep-payout")
	csvJob, _ := h.CreateCSVImport(t, sw.a.Token, "sweep.csv")

	receiver := testenv.NewReceiver(t, testenv.Always(http.StatusNoContent))
	resp := h.Do(t, http.MethodPost, "/v1/webhook-endpoints", sw.a.Token, map[string]any{"url": receiver.URL, "description": "sweep"})
	var endpoint struct{ ID string }
	resp.Decode(t, &endpoint)
	resp = h.Do(t, http.MethodPost, "/v1/webhook-endpoints/"+endpoint.ID+"/test", sw.a.Token, nil)
	var event struct{ ID string }
	resp.Decode(t, &event)
	if endpoint.ID == "" || event.ID == "" {
		t.Fatalf("webhook fixtures: %s", resp.Body)
	}
	receiver.WaitDelivered(t, 1, 30*time.Second)
	resp = h.Do(t, http.MethodPost, "/v1/discount-codes", sw.a.Token, map[string]any{"code": "SWEEP-10", "percent_off": 1000})
	var code struct{ ID string }
	resp.Decode(t, &code)
	if code.ID == "" {
		t.Fatalf("discount code fixture: %s", resp.Body)
	}

	a := sw.a.Seller
	expired, _ := auth.NewTokens(h.Config.Auth.SigningKey, -time.Minute).Issue(a.Seller.ID, a.Credentials.ClientID, 0, auth.SellerScopes)
	forged, _ := auth.NewTokens(strings.Repeat("f", 40), time.Hour).Issue(a.Seller.ID, a.Credentials.ClientID, 0, auth.SellerScopes)
	otherAudience, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "tenure", "aud": "customer-api", "sub": a.Seller.ID.String(), "exp": time.Now().Add(time.Hour).Unix(), "scope": "client",
	}).SignedString([]byte(h.Config.Auth.SigningKey))
	sw.bad = map[string]string{"": "", "forged": "Bearer " + forged, "expired": "Bearer " + expired, "other-audience": "Bearer " + otherAudience}
	sw.settle(t)

	return exampleIDs{
		byPath: map[string]string{
			"/v1/offers/{id}":                         offer.ID,
			"/v1/offers/ref/{seller_offer_reference}": offer.Reference,
			"/v1/orders/{id}":                         order,
			"/v1/webhook-endpoints/{id}":              endpoint.ID,
			"/v1/events/{id}":                         event.ID,
			"/v1/catalog/import/{id}":                 imported.ID,
			"/v1/catalog/imports/{id}":                csvJob,
			"/v1/discount-codes/{id}":                 code.ID,
			"/v1/contracts/{id}":                      contract,
			"/v1/invoices/{id}":                       invoice,
			"/v1/payouts/{id}":                        payout,
		},
		byField: map[string]string{
			"order_id": order, "superseded_by_id": offer.ID, "scenario_input.id": offer.ID, "scenario_input.ids": offer.ID,
			// Values the catalog and the seller know, so that the example
			// bodies get past the rules behind the schema: a mutation is
			// then refused for what it breaks.
			"*.currency": "EUR", "*.seller_product_reference.source": "sku", "*.seller_product_reference.reference": "laptop",
			"*.seller_shipping_reference": "ups", "*.country_code": "DE", "url": "https://shop.example/hooks",
			"filtering_options.property": "title",
		},
	}
}

// send sends one case and checks its answer; the client has checked it
// against the contract.
func (sw *sweep) send(t *testing.T, op sweepOp, c sweepCase) {
	t.Helper()
	target := sw.base + c.path
	if len(c.query) > 0 {
		target += "?" + c.query.Encode()
	}
	var body io.Reader
	if c.body != nil {
		body = bytes.NewReader(c.body)
	}
	req, err := http.NewRequestWithContext(t.Context(), strings.ToUpper(op.method), target, body)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	if c.contentType != "" {
		req.Header.Set("Content-Type", c.contentType)
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	switch {
	case c.as == "a":
		req.Header.Set("Authorization", "Bearer "+sw.a.Token)
	case c.as == "b":
		req.Header.Set("Authorization", "Bearer "+sw.b.Token)
	case strings.HasPrefix(c.as, "token:"):
		if header := sw.bad[strings.TrimPrefix(c.as, "token:")]; header != "" {
			req.Header.Set("Authorization", header)
		}
	}
	resp, err := sw.client.Do(req)
	if err != nil {
		t.Errorf("%s: %v", c.name, err)
		return
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode < 400 || resp.StatusCode >= 500 {
		t.Errorf("%s: answered %d, want a 4xx: %.500s", c.name, resp.StatusCode, raw)
	}
	for _, leak := range guard.Internals {
		if bytes.Contains(raw, []byte(leak)) {
			t.Errorf("%s: the answer shows %q: %.500s", c.name, leak, raw)
		}
	}
}

// settle waits until the fixtures' background work is over: no webhook
// delivery pending and the database unchanged for half a second. Events
// of the fixtures' lifecycles reach the endpoint after it was registered,
// and a delivery that ended during a sweep's request would read as a
// change the request made.
func (sw *sweep) settle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	last := sw.checksum(t)
	for time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		var pending int
		if err := sw.h.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").Scan(&pending); err != nil {
			t.Fatal(err)
		}
		now := sw.checksum(t)
		if pending == 0 && maps.Equal(last, now) {
			return
		}
		last = now
	}
	t.Fatal("the fixtures' background work did not settle within a minute")
}

// checksum fingerprints every table of the database.
func (sw *sweep) checksum(t *testing.T) map[string]string {
	t.Helper()
	ctx := t.Context()
	rows, err := sw.h.Store.Pool.Query(ctx, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for rows.Next() {
		var table string
		if err := rows.Scan(&table); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, fmt.Sprintf(`SELECT %[1]s, count(*)::text || ' ' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM %[2]s t`,
			quoteLiteral(table), quoteIdent(table)))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows, err = sw.h.Store.Pool.Query(ctx, strings.Join(parts, " UNION ALL "))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	sums := map[string]string{}
	for rows.Next() {
		var table, sum string
		if err := rows.Scan(&table, &sum); err != nil {
			t.Fatal(err)
		}
		sums[table] = sum
	}
	return sums
}

func quoteIdent(s string) string   { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
func quoteLiteral(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

func changedTables(before, after map[string]string) string {
	var changed []string
	for table, sum := range after {
		if before[table] != sum {
			changed = append(changed, fmt.Sprintf("%s (%s → %s)", table, before[table], sum))
		}
	}
	slices.Sort(changed)
	return strings.Join(changed, ", ")
}

// settledWorkflowCount counts the namespace's workflows once the count
// stops moving (visibility lags a little behind).
func (sw *sweep) settledWorkflowCount(t *testing.T) int64 {
	t.Helper()
	last := int64(-1)
	for range 50 {
		resp, err := sw.h.Temporal.CountWorkflow(t.Context(), &workflowservice.CountWorkflowExecutionsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Count == last {
			return last
		}
		last = resp.Count
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatalf("the workflow count kept moving (%d)", last)
	return last
}
