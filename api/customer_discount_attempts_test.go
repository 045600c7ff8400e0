package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/api"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/contractcheck"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// validateFrom checks a discount code for an offer as its customer at
// address (the harness must trust the test transport's peer, 0.0.0.0).
func validateFrom(t *testing.T, h *harness, o customerOffer, token, code, address string) response {
	t.Helper()
	req := jsonRequest(t, http.MethodPost, "/customer/discount/validate", map[string]any{"discount_code": code, "offer_id": o.id})
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-Forwarded-For", address)
	return h.send(t, req)
}

// invalidCodeType is the type of an InvalidDiscountCodeError answer.
func invalidCodeType(t *testing.T, r response) string {
	t.Helper()
	var e struct{ Name, Type string }
	r.decode(t, &e)
	if r.status != http.StatusUnprocessableEntity || e.Name != "InvalidDiscountCodeError" {
		t.Fatalf("want InvalidDiscountCodeError, got %d %s", r.status, r.body)
	}
	return e.Type
}

// A script guessing an offer's discount codes is refused with 429 once the
// offer's budget of failed attempts is spent, and from then on the right
// code is refused alike, by this API process and by any other. The seller
// finds one offer.discount_attempts_exceeded event in its log, delivered
// to the endpoint that subscribed to it; the seller's other offers keep
// their codes.
func TestDiscountCodesCannotBeGuessed(t *testing.T) {
	f := newCustomerFixture(t, compressSchedule)
	h := f.h
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusNoContent))
	resp := h.do(t, http.MethodPost, "/v1/webhook-endpoints", f.token, map[string]any{"url": rcv.URL, "events": []string{"offer.discount_attempts_exceeded"}})
	if resp.status != http.StatusCreated {
		t.Fatalf("subscribe: %d %s", resp.status, resp.body)
	}
	f.createDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	o := f.newCustomerOffer(t, "guess-1")
	token := h.customerToken(t, o, "discount:read")
	validate := func(code string) response {
		return h.customer(t, http.MethodPost, "/discount/validate", token, map[string]any{"discount_code": code, "offer_id": o.id})
	}

	budget := h.cfg.RateLimit.DiscountCodes.PerOffer
	var refused response
	guesses := 0
	for ; guesses <= 10*budget; guesses++ {
		if refused = validate(fmt.Sprintf("GUESS-%04d", guesses)); refused.status == http.StatusTooManyRequests {
			break
		}
		if kind := invalidCodeType(t, refused); kind != "not_found" {
			t.Fatalf("guess %d: %s", guesses, kind)
		}
	}
	if guesses != budget {
		t.Fatalf("refused after %d wrong codes, want %d", guesses, budget)
	}
	right := validate("spring-10")
	if right.status != http.StatusTooManyRequests {
		t.Fatalf("the right code after the budget is spent: %d %s", right.status, right.body)
	}
	for _, r := range []response{refused, right} {
		e := r.apiError(t)
		if e["name"] != "TooManyRequests" || !strings.Contains(e["message"].(string), "discount codes were refused for this offer") {
			t.Errorf("refusal %s", r.body)
		}
		if wait := retryAfter(t, r); wait < 3500 || wait > 3600 {
			t.Errorf("Retry-After %d, want about an hour", wait)
		}
		if q := quotaHeaders(t, r); q[0] != budget || q[1] != 0 {
			t.Errorf("limit, remaining, reset %v", q)
		}
	}
	if strings.ReplaceAll(string(right.body), right.apiError(t)["id"].(string), "") != strings.ReplaceAll(string(refused.body), refused.apiError(t)["id"].(string), "") {
		t.Errorf("the right code is refused otherwise than a wrong one:\n%s\n%s", right.body, refused.body)
	}

	// Another API process on the same database counts the same failures.
	other, err := api.New(api.Deps{Config: h.cfg, Services: testenv.Services(t, h.cfg, h.store, h.temporal), Tokens: h.tokens, Logger: testenv.AppLogger()})
	if err != nil {
		t.Fatal(err)
	}
	req := jsonRequest(t, http.MethodPost, "/customer/discount/validate", map[string]any{"discount_code": "SPRING-10", "offer_id": o.id})
	req.Header.Set("Authorization", "Bearer "+token)
	answer, err := other.Test(req, int((30 * time.Second).Milliseconds()))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(answer.Body)
	contractcheck.Shared(t).Verify(t, req, answer.StatusCode, answer.Header, raw)
	if answer.StatusCode != http.StatusTooManyRequests {
		t.Errorf("another API process checks the right code: %d %s", answer.StatusCode, raw)
	}

	var page eventPage
	h.do(t, http.MethodGet, "/v1/events?type=offer.discount_attempts_exceeded", f.token, nil).decode(t, &page)
	if len(page.Events) != 1 || page.Events[0].ObjectID != o.id {
		t.Fatalf("the seller's event log after three refusals: %+v", page.Events)
	}
	var payload struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(page.Events[0].Payload, &payload); err != nil || payload.ID != o.id || payload.Status != "created" {
		t.Errorf("the event's payload is not the offer: %s", page.Events[0].Payload)
	}
	rcv.WaitDelivered(t, 1, 30*time.Second)
	if got := rcv.Requests()[0]; got.Header.Get("webhook-event-type") != "offer.discount_attempts_exceeded" || string(got.Body) != string(page.Events[0].Payload) {
		t.Errorf("the delivery: %v %s", got.Header, got.Body)
	}

	next := f.newCustomerOffer(t, "guess-2")
	if resp := h.customer(t, http.MethodPost, "/discount/validate", h.customerToken(t, next, "discount:read"),
		map[string]any{"discount_code": "SPRING-10", "offer_id": next.id}); resp.status != http.StatusOK {
		t.Errorf("the seller's other offer: %d %s", resp.status, resp.body)
	}
}

// An acceptance naming a code that cannot be applied is a failed attempt
// like a validation: with a budget of two, one such acceptance and one
// wrong validation leave the right code refused, while an acceptance
// without a code still goes through.
func TestAcceptanceWithAWrongCodeCountsAsAFailedAttempt(t *testing.T) {
	f := newCustomerFixture(t, func(c *config.Config) { c.RateLimit.DiscountCodes.PerOffer = 2 })
	h := f.h
	f.createDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	o := f.newCustomerOffer(t, "accept-guess", withoutSublines)
	token := h.customerToken(t, o, "")
	at := f.readyToAccept(t, o, token).Format(time.RFC3339Nano)
	accept := func(code string) response {
		body := map[string]any{"last_updated_at": at}
		if code != "" {
			body["discount_code"] = code
		}
		return h.customer(t, http.MethodPut, "/offers/"+o.id+"/accept", token, body)
	}
	if kind := invalidCodeType(t, accept("NOPE")); kind != "not_found" {
		t.Errorf("an acceptance with an unknown code: %s", kind)
	}
	if kind := invalidCodeType(t, h.customer(t, http.MethodPost, "/discount/validate", token, map[string]any{"discount_code": "NOPE-2", "offer_id": o.id})); kind != "not_found" {
		t.Errorf("a validation of an unknown code: %s", kind)
	}
	if resp := accept("SPRING-10"); resp.status != http.StatusTooManyRequests || resp.errorName(t) != "TooManyRequests" {
		t.Fatalf("the right code once two attempts failed: %d %s", resp.status, resp.body)
	}
	if got := f.getOffer(t, o.id).Status; got != "created" {
		t.Errorf("a refused acceptance moved the offer to %s", got)
	}
	if resp := accept(""); resp.status != http.StatusOK {
		t.Errorf("an acceptance without a code: %d %s", resp.status, resp.body)
	}
}

// Failed attempts count per client address too: an address that spent its
// budget on several offers is refused on the next one, while the
// customer of that offer at another address is not. A code that applies
// counts nothing.
func TestDiscountAttemptsPerAddress(t *testing.T) {
	f := newCustomerFixture(t, func(c *config.Config) {
		c.HTTP.TrustedProxies = []string{"0.0.0.0"}
		c.RateLimit.DiscountCodes.PerOffer, c.RateLimit.DiscountCodes.PerAddress = 3, 4
	})
	h := f.h
	f.createDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	x, y := f.newCustomerOffer(t, "address-x"), f.newCustomerOffer(t, "address-y")
	tokenX, tokenY := h.customerToken(t, x, "discount:read"), h.customerToken(t, y, "discount:read")
	const attacker, customer = "198.51.100.7", "203.0.113.9"

	for i := range 3 {
		if resp := validateFrom(t, h, x, tokenX, "SPRING-10", attacker); resp.status != http.StatusOK {
			t.Fatalf("the right code %d: %d %s", i, resp.status, resp.body)
		}
		invalidCodeType(t, validateFrom(t, h, x, tokenX, "WRONG-"+strconv.Itoa(i), attacker))
	}
	if resp := validateFrom(t, h, x, tokenX, "WRONG-3", attacker); resp.status != http.StatusTooManyRequests ||
		!strings.Contains(string(resp.body), "for this offer") {
		t.Errorf("the offer's fourth failure: %d %s", resp.status, resp.body)
	}
	invalidCodeType(t, validateFrom(t, h, y, tokenY, "WRONG-4", attacker))
	resp := validateFrom(t, h, y, tokenY, "SPRING-10", attacker)
	if resp.status != http.StatusTooManyRequests || !strings.Contains(string(resp.body), "for this address") {
		t.Errorf("the address's fifth failure, on another offer: %d %s", resp.status, resp.body)
	}
	if resp := validateFrom(t, h, y, tokenY, "SPRING-10", customer); resp.status != http.StatusOK {
		t.Errorf("the offer's customer at another address: %d %s", resp.status, resp.body)
	}
}
