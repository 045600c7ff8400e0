package customer_test

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
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/contractcheck"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// validateFrom checks a discount code for an offer as its customer at
// address (the harness must trust the test transport's peer, 0.0.0.0).
func validateFrom(t *testing.T, h *apitest.Harness, o apitest.CustomerOffer, token, code, address string) apitest.Response {
	t.Helper()
	req := jsonRequest(t, http.MethodPost, "/customer/discount/validate", map[string]any{"discount_code": code, "offer_id": o.ID})
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-Forwarded-For", address)
	return h.Send(t, req)
}

// invalidCodeType is the type of an InvalidDiscountCodeError answer.
func invalidCodeType(t *testing.T, r apitest.Response) string {
	t.Helper()
	var e struct{ Name, Type string }
	r.Decode(t, &e)
	if r.Status != http.StatusUnprocessableEntity || e.Name != "InvalidDiscountCodeError" {
		t.Fatalf("want InvalidDiscountCodeError, got %d %s", r.Status, r.Body)
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
	f := apitest.NewOfferFixture(t, apitest.CompressSchedule)
	h := f.Harness
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusNoContent))
	resp := h.Do(t, http.MethodPost, "/v1/webhook-endpoints", f.Token, map[string]any{"url": rcv.URL, "events": []string{"offer.discount_attempts_exceeded"}})
	if resp.Status != http.StatusCreated {
		t.Fatalf("subscribe: %d %s", resp.Status, resp.Body)
	}
	f.CreateDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	o := f.NewCustomerOffer(t, "guess-1")
	token := h.CustomerToken(t, o, "discount:read")
	validate := func(code string) apitest.Response {
		return h.Customer(t, http.MethodPost, "/discount/validate", token, map[string]any{"discount_code": code, "offer_id": o.ID})
	}

	budget := h.Config.RateLimit.DiscountCodes.PerOffer
	var refused apitest.Response
	guesses := 0
	for ; guesses <= 10*budget; guesses++ {
		if refused = validate(fmt.Sprintf("GUESS-%04d", guesses)); refused.Status == http.StatusTooManyRequests {
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
	if right.Status != http.StatusTooManyRequests {
		t.Fatalf("the right code after the budget is spent: %d %s", right.Status, right.Body)
	}
	for _, r := range []apitest.Response{refused, right} {
		e := r.APIError(t)
		if e["name"] != "TooManyRequests" || !strings.Contains(e["message"].(string), "discount codes were refused for this offer") {
			t.Errorf("refusal %s", r.Body)
		}
		if wait := apitest.RetryAfter(t, r); wait < 3500 || wait > 3600 {
			t.Errorf("Retry-After %d, want about an hour", wait)
		}
		if q := apitest.QuotaHeaders(t, r); q[0] != budget || q[1] != 0 {
			t.Errorf("limit, remaining, reset %v", q)
		}
	}
	if strings.ReplaceAll(string(right.Body), right.APIError(t)["id"].(string), "") != strings.ReplaceAll(string(refused.Body), refused.APIError(t)["id"].(string), "") {
		t.Errorf("the right code is refused otherwise than a wrong one:\n%s\n%s", right.Body, refused.Body)
	}

	// Another API process on the same database counts the same failures.
	other, err := api.New(api.Deps{Config: h.Config, Services: testenv.Services(t, h.Config, h.Store, h.Temporal), Tokens: h.Tokens, Logger: testenv.AppLogger()})
	if err != nil {
		t.Fatal(err)
	}
	req := jsonRequest(t, http.MethodPost, "/customer/discount/validate", map[string]any{"discount_code": "SPRING-10", "offer_id": o.ID})
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

	var page apitest.EventPage
	h.Do(t, http.MethodGet, "/v1/events?type=offer.discount_attempts_exceeded", f.Token, nil).Decode(t, &page)
	if len(page.Events) != 1 || page.Events[0].ObjectID != o.ID {
		t.Fatalf("the seller's event log after three refusals: %+v", page.Events)
	}
	var payload struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(page.Events[0].Payload, &payload); err != nil || payload.ID != o.ID || payload.Status != "created" {
		t.Errorf("the event's payload is not the offer: %s", page.Events[0].Payload)
	}
	rcv.WaitDelivered(t, 1, 30*time.Second)
	if got := rcv.Requests()[0]; got.Header.Get("webhook-event-type") != "offer.discount_attempts_exceeded" || string(got.Body) != string(page.Events[0].Payload) {
		t.Errorf("the delivery: %v %s", got.Header, got.Body)
	}

	next := f.NewCustomerOffer(t, "guess-2")
	if resp := h.Customer(t, http.MethodPost, "/discount/validate", h.CustomerToken(t, next, "discount:read"),
		map[string]any{"discount_code": "SPRING-10", "offer_id": next.ID}); resp.Status != http.StatusOK {
		t.Errorf("the seller's other offer: %d %s", resp.Status, resp.Body)
	}
}

// An acceptance naming a code that cannot be applied is a failed attempt
// like a validation: with a budget of two, one such acceptance and one
// wrong validation leave the right code refused, while an acceptance
// without a code still goes through.
func TestAcceptanceWithAWrongCodeCountsAsAFailedAttempt(t *testing.T) {
	f := apitest.NewOfferFixture(t, func(c *config.Config) { c.RateLimit.DiscountCodes.PerOffer = 2 })
	h := f.Harness
	f.CreateDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	o := f.NewCustomerOffer(t, "accept-guess", apitest.WithoutSublines)
	token := h.CustomerToken(t, o, "")
	at := f.ReadyToAccept(t, o, token).Format(time.RFC3339Nano)
	accept := func(code string) apitest.Response {
		body := map[string]any{"last_updated_at": at}
		if code != "" {
			body["discount_code"] = code
		}
		return h.Customer(t, http.MethodPut, "/offers/"+o.ID+"/accept", token, body)
	}
	if kind := invalidCodeType(t, accept("NOPE")); kind != "not_found" {
		t.Errorf("an acceptance with an unknown code: %s", kind)
	}
	if kind := invalidCodeType(t, h.Customer(t, http.MethodPost, "/discount/validate", token, map[string]any{"discount_code": "NOPE-2", "offer_id": o.ID})); kind != "not_found" {
		t.Errorf("a validation of an unknown code: %s", kind)
	}
	if resp := accept("SPRING-10"); resp.Status != http.StatusTooManyRequests || resp.ErrorName(t) != "TooManyRequests" {
		t.Fatalf("the right code once two attempts failed: %d %s", resp.Status, resp.Body)
	}
	if got := f.GetOffer(t, o.ID).Status; got != "created" {
		t.Errorf("a refused acceptance moved the offer to %s", got)
	}
	if resp := accept(""); resp.Status != http.StatusOK {
		t.Errorf("an acceptance without a code: %d %s", resp.Status, resp.Body)
	}
}

// Failed attempts count per client address too: an address that spent its
// budget on several offers is refused on the next one, while the
// customer of that offer at another address is not. A code that applies
// counts nothing.
func TestDiscountAttemptsPerAddress(t *testing.T) {
	f := apitest.NewOfferFixture(t, func(c *config.Config) {
		c.HTTP.TrustedProxies = []string{"0.0.0.0"}
		c.RateLimit.DiscountCodes.PerOffer, c.RateLimit.DiscountCodes.PerAddress = 3, 4
	})
	h := f.Harness
	f.CreateDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	x, y := f.NewCustomerOffer(t, "address-x"), f.NewCustomerOffer(t, "address-y")
	tokenX, tokenY := h.CustomerToken(t, x, "discount:read"), h.CustomerToken(t, y, "discount:read")
	const attacker, customer = "198.51.100.7", "203.0.113.9"

	for i := range 3 {
		if resp := validateFrom(t, h, x, tokenX, "SPRING-10", attacker); resp.Status != http.StatusOK {
			t.Fatalf("the right code %d: %d %s", i, resp.Status, resp.Body)
		}
		invalidCodeType(t, validateFrom(t, h, x, tokenX, "WRONG-"+strconv.Itoa(i), attacker))
	}
	if resp := validateFrom(t, h, x, tokenX, "WRONG-3", attacker); resp.Status != http.StatusTooManyRequests ||
		!strings.Contains(string(resp.Body), "for this offer") {
		t.Errorf("the offer's fourth failure: %d %s", resp.Status, resp.Body)
	}
	invalidCodeType(t, validateFrom(t, h, y, tokenY, "WRONG-4", attacker))
	resp := validateFrom(t, h, y, tokenY, "SPRING-10", attacker)
	if resp.Status != http.StatusTooManyRequests || !strings.Contains(string(resp.Body), "for this address") {
		t.Errorf("the address's fifth failure, on another offer: %d %s", resp.Status, resp.Body)
	}
	if resp := validateFrom(t, h, y, tokenY, "SPRING-10", customer); resp.Status != http.StatusOK {
		t.Errorf("the offer's customer at another address: %d %s", resp.Status, resp.Body)
	}
}
