package guard_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// keyed sends a JSON request with an Idempotency-Key (raw bodies are sent
// verbatim), with the bearer token unless it is empty.
func keyed(t *testing.T, h *apitest.Harness, method, target, token, key string, body any) apitest.Response {
	t.Helper()
	raw, ok := body.(string)
	if !ok {
		encoded, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(encoded)
	}
	req := httptest.NewRequest(method, target, strings.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Idempotency-Key", key)
	return h.Send(t, req)
}

func TestIdempotencyKeyReplaysAndRefuses(t *testing.T) {
	h := apitest.New(t)
	seller := h.Seller(t)
	token := h.Token(t, seller, "client")
	const path = "/v1/shipping-method/method"

	first := keyed(t, h, http.MethodPost, path, token, "sm-1", `{"seller_shipping_method_reference":"dhl","name":"DHL"}`)
	if first.Status != http.StatusCreated || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d %v %s", first.Status, first.Header, first.Body)
	}
	// The same JSON object, keys in another order and spaced out.
	retry := keyed(t, h, http.MethodPost, path, token, "sm-1", "{ \"name\": \"DHL\",\n  \"seller_shipping_method_reference\": \"dhl\" }")
	if retry.Status != http.StatusCreated || !bytes.Equal(retry.Body, first.Body) || retry.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("retry: %d %v %s, want %s", retry.Status, retry.Header, retry.Body, first.Body)
	}

	refusals := []struct {
		name, path, body, want string
	}{
		{"another body", path, `{"seller_shipping_method_reference":"dhl","name":"DHL Express"}`,
			`Idempotency-Key "sm-1" was first used for this operation with another body or query; send a new key with a new request`},
		{"another operation", "/v1/webhook-endpoints", `{"url":"http://127.0.0.1:9/hooks"}`,
			`Idempotency-Key "sm-1" was first used for POST /v1/shipping-method/method; send a new key with a new request`},
		{"another query", path + "?x=1", `{"seller_shipping_method_reference":"dhl","name":"DHL"}`,
			`Idempotency-Key "sm-1" was first used for this operation with another body or query`},
	}
	for _, r := range refusals {
		resp := keyed(t, h, http.MethodPost, r.path, token, "sm-1", r.body)
		e := resp.APIError(t)
		if resp.Status != http.StatusUnprocessableEntity || e["name"] != "idempotency_key_reused" || !strings.HasPrefix(e["message"].(string), r.want) {
			t.Errorf("%s: %d %s", r.name, resp.Status, resp.Body)
		}
	}

	// Another seller's key of the same name is its own.
	other := h.Seller(t)
	theirs := keyed(t, h, http.MethodPost, path, h.Token(t, other, "client"), "sm-1", `{"seller_shipping_method_reference":"dhl","name":"DHL"}`)
	if theirs.Status != http.StatusCreated || theirs.Header.Get("Idempotent-Replayed") != "" || bytes.Equal(theirs.Body, first.Body) {
		t.Errorf("another seller: %d %s", theirs.Status, theirs.Body)
	}

	// A request the contract refuses leaves the key free.
	if resp := keyed(t, h, http.MethodPost, path, token, "sm-2", `{"name":"no reference"}`); resp.Status != http.StatusBadRequest {
		t.Errorf("bad body: %d %s", resp.Status, resp.Body)
	}
	if resp := keyed(t, h, http.MethodPost, path, token, "sm-2", `{"seller_shipping_method_reference":"gls"}`); resp.Status != http.StatusCreated {
		t.Errorf("the corrected request: %d %s", resp.Status, resp.Body)
	}

	// A business refusal is an outcome like any other: replayed.
	duplicate := keyed(t, h, http.MethodPost, path, token, "sm-3", `{"seller_shipping_method_reference":"dhl"}`)
	again := keyed(t, h, http.MethodPost, path, token, "sm-3", `{"seller_shipping_method_reference":"dhl"}`)
	if duplicate.Status != http.StatusUnprocessableEntity || again.Status != duplicate.Status || !bytes.Equal(again.Body, duplicate.Body) ||
		again.Header.Get("Content-Type") != "application/vnd.goa.error" {
		t.Errorf("refusal replay: %d %s / %d %s", duplicate.Status, duplicate.Body, again.Status, again.Body)
	}

	if n := h.Count(t, "SELECT count(*) FROM shipping_methods WHERE seller_id = $1", seller.Seller.ID); n != 2 {
		t.Errorf("seller has %d shipping methods, want dhl and gls", n)
	}
}

func TestIdempotencyKeyFormat(t *testing.T) {
	h := apitest.New(t)
	token := h.Token(t, h.Seller(t), "client")
	body := `{"seller_shipping_method_reference":"dhl"}`
	for name, key := range map[string]string{
		"too long":  strings.Repeat("k", 256),
		"non-ASCII": "schlüssel",
		"control":   "a\tb",
	} {
		resp := keyed(t, h, http.MethodPost, "/v1/shipping-method/method", token, key, body)
		if e := resp.APIError(t); resp.Status != http.StatusBadRequest || !strings.Contains(e["message"].(string), "Idempotency-Key") {
			t.Errorf("%s: %d %s", name, resp.Status, resp.Body)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/shipping-method/method", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Add("Idempotency-Key", "one")
	req.Header.Add("Idempotency-Key", "two")
	if resp := h.Send(t, req); resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), "send one Idempotency-Key header") {
		t.Errorf("two keys: %d %s", resp.Status, resp.Body)
	}
	if resp := keyed(t, h, http.MethodPost, "/v1/shipping-method/method", token, strings.Repeat("k", 255), body); resp.Status != http.StatusCreated {
		t.Errorf("a 255-character key: %d %s", resp.Status, resp.Body)
	}
}

// Concurrent requests with one key over real connections make one offer:
// each answers the offer (201) or that the first is still running (409).
func TestIdempotentOfferCreationUnderConcurrency(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	base := f.Harness.Serve(t)
	payload, err := json.Marshal(apitest.OfferPayload("concurrent"))
	if err != nil {
		t.Fatal(err)
	}
	const clients = 6
	statuses := make([]int, clients)
	bodies := make([][]byte, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, base+"/v1/offers", bytes.NewReader(payload))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+f.Token)
			req.Header.Set("Idempotency-Key", "offer-concurrent")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			statuses[i] = resp.StatusCode
			bodies[i], _ = io.ReadAll(resp.Body)
		}()
	}
	wg.Wait()
	t.Logf("statuses %v", statuses)
	ids := map[string]bool{}
	for i, status := range statuses {
		switch status {
		case http.StatusCreated:
			var o apitest.OfferView
			if err := json.Unmarshal(bodies[i], &o); err != nil {
				t.Fatal(err)
			}
			ids[o.ID] = true
		case http.StatusConflict:
			if !strings.Contains(string(bodies[i]), "idempotency_key_in_use") {
				t.Errorf("409 %s", bodies[i])
			}
		default:
			t.Errorf("status %d %s", status, bodies[i])
		}
	}
	if len(ids) != 1 {
		t.Errorf("the 201 answers name %d offers", len(ids))
	}
	if n := f.Harness.Count(t, "SELECT count(*) FROM offers WHERE seller_offer_reference = 'concurrent'"); n != 1 {
		t.Errorf("%d offers", n)
	}
	retry := keyed(t, f.Harness, http.MethodPost, "/v1/offers", f.Token, "offer-concurrent", string(payload))
	var o apitest.OfferView
	retry.Decode(t, &o)
	if retry.Status != http.StatusCreated || !ids[o.ID] || retry.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("retry: %d %s", retry.Status, retry.Body)
	}
}

// loseOutcome makes a completed key look like its process died between
// the effect and the record: in flight, its lease run out.
func loseOutcome(t *testing.T, h *apitest.Harness, key string) {
	t.Helper()
	tag, err := h.Store.Pool.Exec(t.Context(), `UPDATE idempotency_keys
		SET status = NULL, content_type = NULL, body = NULL, lease_token = gen_random_uuid(), leased_until = now() - interval '1 second'
		WHERE key = $1 AND status IS NOT NULL`, key)
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("losing the outcome of %s: %v (%d rows)", key, err, tag.RowsAffected())
	}
}

// A retry that resumes a request whose outcome was lost after its effect
// answers as the first attempt did and makes no second effect: creations
// find their resource under the reserved id, workflow updates join the
// first attempt's update (a closed workflow's included).
func TestResumedRequestsRepeatTheirFirstEffect(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	accepted, rejected := f.AcceptedOrder(t, "to-accept"), f.AcceptedOrder(t, "to-reject")
	voided := f.CreateOffer(t, apitest.OfferPayload("to-void"))
	var endpoint struct{ ID string }
	h.Do(t, http.MethodPost, "/v1/webhook-endpoints", f.Token, map[string]any{"url": "http://127.0.0.1:9/pinged"}).Decode(t, &endpoint)
	cases := []struct {
		name, path string
		body       any
		// id reads the resource's id from an answer ("" for none).
		id string
		// count counts the resources the request makes; want of them
		// exist after it.
		count string
		want  int
	}{
		{"offer creation", "/v1/offers", apitest.OfferPayload("resumed"), "id",
			"SELECT count(*) FROM offers WHERE seller_offer_reference = 'resumed'", 1},
		{"shipping method", "/v1/shipping-method/method", map[string]any{"seller_shipping_method_reference": "resumed"}, "id",
			"SELECT count(*) FROM shipping_methods WHERE seller_shipping_method_reference = 'resumed'", 1},
		{"webhook endpoint", "/v1/webhook-endpoints", map[string]any{"url": "http://127.0.0.1:9/resumed"}, "secret",
			"SELECT count(*) FROM webhook_endpoints WHERE url = 'http://127.0.0.1:9/resumed'", 1},
		{"ping", "/v1/webhook-endpoints/" + endpoint.ID + "/test", map[string]any{}, "id",
			"SELECT count(*) FROM events WHERE type = 'ping'", 1},
		{"product import", "/v1/catalog/import", map[string]any{"products": []any{apitest.ProductJSON("sku", "resumed", "Resumed", 1000)}}, "id",
			"SELECT count(*) FROM product_imports", 2},
		{"CSV import", "/v1/catalog/imports", map[string]any{"filename": "resumed.csv"}, "upload_url",
			"SELECT count(*) FROM csv_imports", 1},
		{"order acceptance", "/v1/orders/" + accepted + "/accept", map[string]any{}, "",
			"SELECT count(*) FROM orders WHERE status = 'confirmed'", 1},
		{"order rejection (its workflow ends)", "/v1/orders/" + rejected + "/reject", map[string]any{}, "",
			"SELECT count(*) FROM orders WHERE status = 'rejected'", 1},
		{"offer void (its workflow ends)", "/v1/offers/" + voided.ID + "/void", map[string]any{}, "id",
			"SELECT count(*) FROM offers WHERE status = 'voided'", 1},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := "resumed-" + string(rune('a'+i))
			first := keyed(t, h, http.MethodPost, c.path, f.Token, key, c.body)
			if first.Status >= 300 {
				t.Fatalf("first: %d %s", first.Status, first.Body)
			}
			before := h.Count(t, c.count)
			loseOutcome(t, h, key)
			retry := keyed(t, h, http.MethodPost, c.path, f.Token, key, c.body)
			if retry.Status != first.Status || retry.Header.Get("Idempotent-Replayed") != "" {
				t.Fatalf("resumed: %d %s, want %d like %s", retry.Status, retry.Body, first.Status, first.Body)
			}
			if c.id != "" {
				var a, b map[string]any
				first.Decode(t, &a)
				retry.Decode(t, &b)
				if a[c.id] != b[c.id] {
					t.Errorf("resumed answer names %v, first %v", b[c.id], a[c.id])
				}
			}
			if after := h.Count(t, c.count); after != before || after != c.want {
				t.Errorf("%d then %d resources, want %d", before, after, c.want)
			}
			replay := keyed(t, h, http.MethodPost, c.path, f.Token, key, c.body)
			if replay.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(replay.Body, retry.Body) {
				t.Errorf("the resumed outcome is not recorded: %d %s", replay.Status, replay.Body)
			}
		})
	}
}
