package seller_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/delivery"
)

type endpointView struct {
	ID                      string     `json:"id"`
	URL                     string     `json:"url"`
	Events                  []string   `json:"events"`
	Description             string     `json:"description"`
	Enabled                 bool       `json:"enabled"`
	DisabledReason          string     `json:"disabled_reason"`
	PreviousSecretExpiresAt *time.Time `json:"previous_secret_expires_at"`
	Secret                  string     `json:"secret"`
}

func TestWebhookEndpointLifecycle(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")

	resp := h.Do(t, http.MethodPost, "/v1/webhook-endpoints", token, map[string]any{
		"url": "http://127.0.0.1:9/hooks", "events": []string{"offer.accepted", "order.created"}, "description": "ERP",
	})
	if resp.Status != http.StatusCreated {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var created endpointView
	resp.Decode(t, &created)
	if !strings.HasPrefix(created.Secret, "whsec_") || !created.Enabled || len(created.Events) != 2 || created.Description != "ERP" {
		t.Errorf("created %+v", created)
	}
	row, _ := h.Store.GetWebhookEndpointByID(t.Context(), uuid.MustParse(created.ID))
	if strings.Contains(string(row.Secret), created.Secret) || strings.Contains(string(row.Secret), strings.TrimPrefix(created.Secret, "whsec_")) {
		t.Error("the secret is stored in clear")
	}

	var got endpointView
	h.Do(t, http.MethodGet, "/v1/webhook-endpoints/"+created.ID, token, nil).Decode(t, &got)
	if got.ID != created.ID || got.Secret != "" || got.URL != created.URL {
		t.Errorf("get %+v", got)
	}
	var list struct{ Data []endpointView }
	h.Do(t, http.MethodGet, "/v1/webhook-endpoints", token, nil).Decode(t, &list)
	if len(list.Data) != 1 || list.Data[0].Secret != "" {
		t.Errorf("list %+v", list)
	}

	resp = h.Do(t, http.MethodPatch, "/v1/webhook-endpoints/"+created.ID, token, map[string]any{"events": []string{}, "enabled": false})
	var patched endpointView
	resp.Decode(t, &patched)
	if resp.Status != http.StatusOK || len(patched.Events) != 0 || patched.Enabled || patched.DisabledReason == "" || patched.URL != created.URL {
		t.Errorf("patch: %d %+v", resp.Status, patched)
	}
	var reenabled endpointView
	h.Do(t, http.MethodPatch, "/v1/webhook-endpoints/"+created.ID, token, map[string]any{"enabled": true}).Decode(t, &reenabled)
	if !reenabled.Enabled || reenabled.DisabledReason != "" {
		t.Errorf("re-enabled %+v", reenabled)
	}

	var rotated endpointView
	resp = h.Do(t, http.MethodPost, "/v1/webhook-endpoints/"+created.ID+"/rotate-secret", token, nil)
	resp.Decode(t, &rotated)
	if resp.Status != http.StatusOK || rotated.Secret == created.Secret || !strings.HasPrefix(rotated.Secret, "whsec_") ||
		rotated.PreviousSecretExpiresAt == nil || time.Until(*rotated.PreviousSecretExpiresAt) < 23*time.Hour {
		t.Errorf("rotate: %d %+v", resp.Status, rotated)
	}

	other := h.Token(t, h.Seller(t), "client")
	for _, op := range []struct{ method, path string }{
		{http.MethodGet, ""}, {http.MethodPatch, ""}, {http.MethodDelete, ""}, {http.MethodPost, "/rotate-secret"}, {http.MethodPost, "/test"},
	} {
		var body any
		if op.method == http.MethodPatch {
			body = map[string]any{"description": "mine now"}
		}
		if resp := h.Do(t, op.method, "/v1/webhook-endpoints/"+created.ID+op.path, other, body); resp.Status != http.StatusNotFound {
			t.Errorf("another seller's %s %s: %d %s", op.method, op.path, resp.Status, resp.Body)
		}
	}

	if resp := h.Do(t, http.MethodDelete, "/v1/webhook-endpoints/"+created.ID, token, nil); resp.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", resp.Status, resp.Body)
	}
	if resp := h.Do(t, http.MethodGet, "/v1/webhook-endpoints/"+created.ID, token, nil); resp.Status != http.StatusNotFound {
		t.Errorf("a deleted endpoint answers %d", resp.Status)
	}
	if row, _ := h.Store.GetWebhookEndpointByID(t.Context(), uuid.MustParse(created.ID)); len(row.Secret) != 0 || row.PreviousSecret != nil {
		t.Error("a deleted endpoint keeps its secrets")
	}
}

func TestWebhookScopes(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	readOnly := h.Token(t, s, "seller-webhook:read")
	body := map[string]any{"url": "https://shop.example/hooks"}
	if resp := h.Do(t, http.MethodPost, "/v1/webhook-endpoints", readOnly, body); resp.Status != http.StatusForbidden ||
		!strings.Contains(string(resp.Body), "seller-webhook:edit") {
		t.Errorf("create with a read-only token: %d %s", resp.Status, resp.Body)
	}
	for _, path := range []string{"/v1/webhook-endpoints", "/v1/events"} {
		if resp := h.Do(t, http.MethodGet, path, readOnly, nil); resp.Status != http.StatusOK {
			t.Errorf("%s with seller-webhook:read: %d %s", path, resp.Status, resp.Body)
		}
		if resp := h.Do(t, http.MethodGet, path, h.Token(t, s, "seller-offer:read"), nil); resp.Status != http.StatusForbidden {
			t.Errorf("%s without seller-webhook:read: %d", path, resp.Status)
		}
	}
}

func TestWebhookEndpointBadInput(t *testing.T) {
	sandbox := apitest.New(t)
	production := apitest.New(t, func(c *config.Config) { c.Environment = config.Production })
	cases := []struct {
		name   string
		h      *apitest.Harness
		body   any
		status int
		want   string
	}{
		{"missing url", sandbox, map[string]any{"events": []string{}}, 400, "url"},
		{"empty url", sandbox, map[string]any{"url": ""}, 400, "field url: must not be empty"},
		{"relative url", sandbox, map[string]any{"url": "/hooks"}, 400, "field url: must be an absolute"},
		{"ftp url", sandbox, map[string]any{"url": "ftp://shop.example/hooks"}, 400, "field url: must use https, not ftp"},
		{"http to another host", sandbox, map[string]any{"url": "http://shop.example/hooks"}, 400, "field url: must use https, not http"},
		{"https without a host", sandbox, map[string]any{"url": "https:javascript:alert(1)"}, 400, "field url: must be an absolute https URL with a host"},
		{"scheme-relative url", sandbox, map[string]any{"url": "//shop.example/hooks"}, 400, "field url: must be an absolute"},
		{"http in production", production, map[string]any{"url": "http://93.184.215.14/hooks"}, 400, "field url: must use https, not http"},
		{"userinfo", sandbox, map[string]any{"url": "https://a:b@shop.example/hooks"}, 400, "field url: must not carry a user"},
		{"over-long url", sandbox, map[string]any{"url": "https://shop.example/" + strings.Repeat("p", 2048)}, 400, "at most 2048"},
		{"unknown event", sandbox, map[string]any{"url": "https://shop.example/h", "events": []string{"order.created", "offer.exploded"}}, 400, "field events[1] must be one of offer.pending_review, offer.accepted"},
		{"ping is not subscribable", sandbox, map[string]any{"url": "https://shop.example/h", "events": []string{"ping"}}, 400, "field events[0] must be one of offer.pending_review"},
		{"repeated event", sandbox, map[string]any{"url": "https://shop.example/h", "events": []string{"order.created", "order.created"}}, 400, "listed twice"},
		{"events not a list", sandbox, map[string]any{"url": "https://shop.example/h", "events": "order.created"}, 400, "events"},
		{"over-long description", sandbox, map[string]any{"url": "https://shop.example/h", "description": strings.Repeat("d", 501)}, 400, "field description must be at most 500 characters, got 501"},
		{"malformed json", sandbox, `{"url": `, 400, "not valid JSON"},
		{"loopback in production", production, map[string]any{"url": "http://127.0.0.1:8080/hooks"}, 422, "field url: is refused"},
		{"private in production", production, map[string]any{"url": "https://10.1.2.3/hooks"}, 422, "10.1.2.3"},
		{"link-local in production", production, map[string]any{"url": "https://169.254.169.254/latest"}, 422, "field url"},
		{"mapped loopback in production", production, map[string]any{"url": "https://[::ffff:127.0.0.1]/h"}, 422, "field url"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.h.Seller(t)
			resp := tc.h.Do(t, http.MethodPost, "/v1/webhook-endpoints", tc.h.Token(t, s, "client"), tc.body)
			if resp.Status != tc.status {
				t.Fatalf("got %d %s", resp.Status, resp.Body)
			}
			if e := resp.APIError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("the message does not name %q: %v", tc.want, e["message"])
			}
			if rows, _ := tc.h.Store.ListWebhookEndpoints(t.Context(), s.Seller.ID); len(rows) != 0 {
				t.Errorf("bad input stored %d endpoints", len(rows))
			}
		})
	}

	// A bad update changes nothing either.
	s := production.Seller(t)
	token := production.Token(t, s, "client")
	created := production.Do(t, http.MethodPost, "/v1/webhook-endpoints", token, map[string]any{"url": "https://93.184.215.14/hooks"})
	if created.Status != http.StatusCreated {
		t.Fatalf("a public address in production: %d %s", created.Status, created.Body)
	}
	var ep endpointView
	created.Decode(t, &ep)
	for body, status := range map[string]int{
		`{"url": "https://192.168.1.1/x", "description": "changed"}`:  422,
		`{"url": "http://93.184.215.14/x", "description": "changed"}`: 400,
		`{"events": ["order.shipped"], "description": "changed"}`:     400,
		`{"description": 5}`: 400,
	} {
		if resp := production.Do(t, http.MethodPatch, "/v1/webhook-endpoints/"+ep.ID, token, body); resp.Status != status {
			t.Errorf("%s: %d %s", body, resp.Status, resp.Body)
		}
	}
	row, _ := production.Store.GetWebhookEndpointByID(t.Context(), uuid.MustParse(ep.ID))
	if row.Url != "https://93.184.215.14/hooks" || row.Description != "" || len(row.Events) != 0 {
		t.Errorf("a refused update changed the endpoint: %+v", row)
	}
}

func TestEndpointLimit(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	for i := range webhook.MaxEndpoints {
		if resp := h.Do(t, http.MethodPost, "/v1/webhook-endpoints", token, map[string]any{"url": fmt.Sprintf("https://shop.example/%d", i)}); resp.Status != http.StatusCreated {
			t.Fatalf("endpoint %d: %d %s", i, resp.Status, resp.Body)
		}
	}
	resp := h.Do(t, http.MethodPost, "/v1/webhook-endpoints", token, map[string]any{"url": "https://shop.example/one-more"})
	if resp.Status != http.StatusUnprocessableEntity || !strings.Contains(resp.APIError(t)["message"].(string), "at most 20") {
		t.Errorf("got %d %s", resp.Status, resp.Body)
	}
}

// The test operation sends a signed ping through the real worker; the
// event log then shows the attempt.
func TestPingAndTheEventLog(t *testing.T) {
	h := apitest.New(t, apitest.CompressSchedule)
	testenv.Worker(t, h.Config, h.Store, h.Temporal)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusAccepted))
	var ep endpointView
	h.Do(t, http.MethodPost, "/v1/webhook-endpoints", token, map[string]any{"url": rcv.URL}).Decode(t, &ep)

	resp := h.Do(t, http.MethodPost, "/v1/webhook-endpoints/"+ep.ID+"/test", token, nil)
	if resp.Status != http.StatusAccepted {
		t.Fatalf("test: %d %s", resp.Status, resp.Body)
	}
	var ping apitest.EventView
	resp.Decode(t, &ping)
	if ping.Type != "ping" || ping.ObjectID != ep.ID {
		t.Errorf("ping %+v", ping)
	}
	rcv.WaitDelivered(t, 1, 30*time.Second)
	got := rcv.Requests()[0]
	sw, _ := standardwebhooks.NewWebhook(ep.Secret)
	if err := sw.Verify(got.Body, got.Header); err != nil || got.ID != ping.ID {
		t.Errorf("the ping (%s) does not verify: %v", got.ID, err)
	}

	var detail apitest.EventView
	deadline := time.Now().Add(10 * time.Second)
	for {
		h.Do(t, http.MethodGet, "/v1/events/"+ping.ID, token, nil).Decode(t, &detail)
		if len(detail.Deliveries) == 1 && detail.Deliveries[0].Status == "delivered" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(detail.Attempts) != 1 || detail.Attempts[0].StatusCode != 202 || detail.Attempts[0].Outcome != "delivered" ||
		detail.Attempts[0].LatencyMs == nil || detail.Attempts[0].ResponseExcerpt != `{"received":true}` || detail.Attempts[0].EndpointID != ep.ID {
		t.Errorf("event detail %+v", detail)
	}
	if string(detail.Payload) != string(got.Body) {
		t.Errorf("the payload shown differs from the body sent:\n%s\n%s", detail.Payload, got.Body)
	}
	if resp := h.Do(t, http.MethodGet, "/v1/events/"+ping.ID, h.Token(t, h.Seller(t), "client"), nil); resp.Status != http.StatusNotFound {
		t.Errorf("another seller reads the event: %d", resp.Status)
	}
}

// recordEvents writes n events of a type for a seller, as issue 5's
// activities will, and dispatches them.
func recordEvents(t *testing.T, h *apitest.Harness, seller uuid.UUID, typ string, object uuid.UUID, n int) []uuid.UUID {
	t.Helper()
	dispatcher := delivery.NewDispatcher(h.Store, h.Temporal, h.Config.Webhooks)
	var ids []uuid.UUID
	for range n {
		err := h.Store.InTx(t.Context(), func(q *dbgen.Queries) error {
			id, err := webhook.Record(t.Context(), q, webhook.NewEvent{SellerID: seller, Type: typ, ObjectID: object,
				Payload: json.RawMessage(fmt.Sprintf(`{"id":"%s","status":"accepted"}`, object))})
			ids = append(ids, id)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := dispatcher.Dispatch(t.Context(), ids...); err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestEventListFiltersAndRedelivery(t *testing.T) {
	h := apitest.New(t, apitest.CompressSchedule)
	testenv.Worker(t, h.Config, h.Store, h.Temporal)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	ok := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	failing := testenv.NewReceiver(t, testenv.Always(http.StatusInternalServerError))
	var okEP, failingEP endpointView
	h.Do(t, http.MethodPost, "/v1/webhook-endpoints", token, map[string]any{"url": ok.URL}).Decode(t, &okEP)
	h.Do(t, http.MethodPost, "/v1/webhook-endpoints", token, map[string]any{"url": failing.URL, "events": []string{"order.canceled"}}).Decode(t, &failingEP)

	offer, order := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	before := time.Now().UTC()
	accepted := recordEvents(t, h, s.Seller.ID, webhook.OfferAccepted, offer, 3)
	canceled := recordEvents(t, h, s.Seller.ID, webhook.OrderCanceled, order, 1)
	recordEvents(t, h, h.Seller(t).Seller.ID, webhook.OfferAccepted, offer, 1) // another seller's

	// Wait until every delivery has ended.
	deadline := time.Now().Add(30 * time.Second)
	for {
		var pending int
		_ = h.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").Scan(&pending)
		if pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries still pending", pending)
		}
		time.Sleep(50 * time.Millisecond)
	}

	list := func(query string) apitest.EventPage {
		t.Helper()
		var page apitest.EventPage
		resp := h.Do(t, http.MethodGet, "/v1/events"+query, token, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", query, resp.Status, resp.Body)
		}
		resp.Decode(t, &page)
		return page
	}
	all := list("")
	if all.Pagination.TotalCount != 4 || len(all.Events) != 4 || all.Events[0].ID != accepted[0].String() || all.Events[3].ID != canceled[0].String() {
		t.Fatalf("all events, oldest first: %+v", all)
	}
	if p := list("?type=order.canceled"); len(p.Events) != 1 || len(p.Events[0].Deliveries) != 2 {
		t.Errorf("by type: %+v", p)
	}
	if p := list("?object_id=" + offer.String()); len(p.Events) != 3 {
		t.Errorf("by object: %d", len(p.Events))
	}
	if p := list("?delivery_success=true"); len(p.Events) != 3 || p.Events[0].Type != "offer.accepted" {
		t.Errorf("delivered: %+v", p)
	}
	if p := list("?delivery_success=false"); len(p.Events) != 1 || p.Events[0].ID != canceled[0].String() {
		t.Errorf("failed: %+v", p)
	}
	if p := list("?limit=2&page=1"); len(p.Events) != 2 || p.Pagination.TotalPages != 2 || p.Pagination.PageSize != 2 || p.Events[0].ID != accepted[2].String() {
		t.Errorf("page 1 of 2: %+v", p.Pagination)
	}
	if p := list("?created_at_gte=" + url.QueryEscape(before.Add(-time.Minute).Format(time.RFC3339Nano)) + "&created_at_lt=" + url.QueryEscape(before.Add(time.Minute).Format(time.RFC3339Nano))); len(p.Events) != 4 {
		t.Errorf("in range: %d", len(p.Events))
	}
	if p := list("?created_at_gt=" + url.QueryEscape(time.Now().Add(time.Minute).Format(time.RFC3339))); len(p.Events) != 0 {
		t.Errorf("after now: %d", len(p.Events))
	}
	for query, want := range map[string]string{
		"?type=order.shipped": "type", "?object_id=abc": "object_id", "?delivery_success=maybe": "delivery_success",
		"?created_at_gt=yesterday": "created_at_gt", "?page=-1": "page", "?limit=0": "limit",
	} {
		resp := h.Do(t, http.MethodGet, "/v1/events"+query, token, nil)
		if resp.Status != http.StatusBadRequest || !strings.Contains(resp.APIError(t)["message"].(string), want) {
			t.Errorf("%s: %d %s", query, resp.Status, resp.Body)
		}
	}

	// The failed delivery is redelivered to the (now healthy) endpoint.
	failing.Close()
	healed := testenv.NewReceiverAt(t, strings.TrimSuffix(strings.TrimPrefix(failing.URL, "http://"), "/webhooks"), testenv.Always(http.StatusOK))
	resp := h.Do(t, http.MethodPost, "/v1/events/"+canceled[0].String()+"/redeliver", token, nil)
	if resp.Status != http.StatusAccepted {
		t.Fatalf("redeliver: %d %s", resp.Status, resp.Body)
	}
	if again := h.Do(t, http.MethodPost, "/v1/events/"+canceled[0].String()+"/redeliver", token, nil); again.Status == http.StatusConflict {
		if e := again.APIError(t); e["name"] != "conflict" {
			t.Errorf("409 body %v", e)
		}
	} else if again.Status != http.StatusAccepted {
		t.Errorf("a second redelivery: %d %s", again.Status, again.Body)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("event after redelivery: %s", h.Do(t, http.MethodGet, "/v1/events/"+canceled[0].String(), token, nil).Body)
		}
	})
	if got := healed.WaitDelivered(t, 1, 30*time.Second); got[canceled[0].String()] == 0 {
		t.Errorf("the redelivery carries another id: %v", got)
	}
	if resp := h.Do(t, http.MethodPost, "/v1/events/"+uuid.NewString()+"/redeliver", token, nil); resp.Status != http.StatusNotFound {
		t.Errorf("unknown event: %d", resp.Status)
	}
}

// A redelivery while a delivery of the event is pending answers 409.
func TestRedeliveryConflict(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.Webhooks.RetrySchedule = []time.Duration{0, time.Minute} })
	testenv.Worker(t, h.Config, h.Store, h.Temporal)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	failing := testenv.NewReceiver(t, testenv.Always(http.StatusInternalServerError))
	h.Do(t, http.MethodPost, "/v1/webhook-endpoints", token, map[string]any{"url": failing.URL})
	id := recordEvents(t, h, s.Seller.ID, webhook.OrderCreated, uuid.New(), 1)[0]
	resp := h.Do(t, http.MethodPost, "/v1/events/"+id.String()+"/redeliver", token, nil)
	if resp.Status != http.StatusConflict || resp.APIError(t)["name"] != "conflict" {
		t.Errorf("got %d %s", resp.Status, resp.Body)
	}
}
