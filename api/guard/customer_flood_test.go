package guard_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// withoutCustomerLimits lifts the Customer-Facing API's budgets (per client
// address, offer and shared token, and of failed discount codes), for tests
// that send hundreds of requests for one offer from one address.
func withoutCustomerLimits(c *config.Config) {
	lifted := config.BucketConfig{PerSecond: 1_000_000, Burst: 1_000_000}
	c.RateLimit.Address, c.RateLimit.Offer, c.RateLimit.SharedToken = lifted, lifted, lifted
	c.RateLimit.DiscountCodes.PerOffer, c.RateLimit.DiscountCodes.PerAddress = 10_000, 10_000
}

// floodBurst is the size of every budget in the flood tests; a budget
// refills one request every 100 s, which no test waits for.
const floodBurst = 4

// floodBudgets gives the per-address, per-offer and per-shared-token
// budgets floodBurst requests, and lets X-Forwarded-For name each
// request's client (the test transport's peer is 0.0.0.0).
func floodBudgets(c *config.Config) {
	budget := config.BucketConfig{PerSecond: 0.01, Burst: floodBurst}
	c.RateLimit.Address, c.RateLimit.Offer, c.RateLimit.SharedToken = budget, budget, budget
	c.HTTP.TrustedProxies = []string{"0.0.0.0"}
}

// addresses hands out client addresses no request has come from yet.
type addresses struct{ n int }

func (a *addresses) next() string {
	a.n++
	return fmt.Sprintf("10.%d.%d.%d", a.n>>16&0xff, a.n>>8&0xff, a.n&0xff)
}

// one sends r again and again from one new address.
func (a *addresses) one(r sweepRequest) func() sweepRequest {
	address := a.next()
	return func() sweepRequest { return withAddress(r, address) }
}

// each sends r again and again, each time from a new address.
func (a *addresses) each(r sweepRequest) func() sweepRequest {
	return func() sweepRequest { return withAddress(r, a.next()) }
}

// roundRobin sends r again and again from n new addresses in turn.
func (a *addresses) roundRobin(r sweepRequest, n int) func() sweepRequest {
	pool := make([]string, n)
	for i := range pool {
		pool[i] = a.next()
	}
	i := -1
	return func() sweepRequest {
		i++
		return withAddress(r, pool[i%n])
	}
}

// floodWorld is a sweep world around a new offer A, its bearer token
// exchanged from an address of its own (so the exchange spends no budget a
// flood counts on), and, when withSession is set, an identity verification
// session of A.
func floodWorld(t *testing.T, f apitest.OfferFixture, reference string, from *addresses, withSession bool) sweepWorld {
	t.Helper()
	h := f.Harness
	w := sweepWorld{f: f, a: f.NewCustomerOffer(t, reference, apitest.WithoutSublines), sellerToken: f.Token}
	w.lineA = w.a.View.Lines[0].ID
	req := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader(apitest.ExchangeForm(w.a, "").Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", from.next())
	resp := h.Send(t, req)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	resp.Decode(t, &tok)
	w.tokenA = tok.AccessToken
	w.provider = simulatedProvider(h)
	if withSession {
		w.sessionA = idvSession(t, h, w.a, w.tokenA)
	}
	return w
}

// flood sends the requests next makes until one is refused with 429, and
// returns how many got through first. The refusal must be the contract's,
// say which budget and when to come back, and change nothing.
func flood(t *testing.T, what string, w sweepWorld, next func() sweepRequest) int {
	t.Helper()
	for sent := 0; sent <= 4*floodBurst; sent++ {
		before := sweepState(t, w)
		resp := w.send(t, next())
		if resp.Status != http.StatusTooManyRequests {
			continue
		}
		if e := resp.APIError(t); e["name"] != "TooManyRequests" || !strings.Contains(e["message"].(string), "retry after 100 seconds") {
			t.Errorf("%s: the refusal %s", what, resp.Body)
		}
		if wait, q := apitest.RetryAfter(t, resp), apitest.QuotaHeaders(t, resp); wait != 100 || q[0] != floodBurst || q[1] != 0 {
			t.Errorf("%s: Retry-After %d, limit, remaining, reset %v", what, wait, q)
		}
		if after := sweepState(t, w); after != before {
			t.Errorf("%s: a refused request changed state:\nbefore %s\nafter  %s", what, before, after)
		}
		return sent
	}
	t.Fatalf("%s: %d requests and none refused", what, 4*floodBurst+1)
	return 0
}

// Floods of every operation of customer.yaml, by the credentials its
// contract gives it, are refused once they have spent their budget, each
// with 429, Retry-After and the RateLimit headers: requests with an offer's
// bearer token per offer, wherever they come from; requests with a shared
// token per token and per address, so neither many addresses nor many
// (guessed) tokens get further; everything else (refused bearer tokens,
// the public operations, the provider's callback) per address. One offer's
// or address's flood leaves the others their budgets.
func TestCustomerFloods(t *testing.T) {
	f := apitest.NewOfferFixture(t, floodBudgets)
	from := &addresses{}
	want := func(what string, got, admitted int) {
		t.Helper()
		if got != admitted {
			t.Errorf("%s: %d requests got through, want %d", what, got, admitted)
		}
	}
	for _, op := range customerOperations(t) {
		t.Run(op.id, func(t *testing.T) {
			w := floodWorld(t, f, "flood-"+op.id, from, op.signed)
			base := w.base(t, op)
			switch {
			case op.public || op.signed:
				want("one address", flood(t, "one address", w, from.one(base)), floodBurst)
				want("three addresses in turn", flood(t, "three addresses", w, from.roundRobin(base, 3)), 3*floodBurst)
				return
			case op.sharedToken:
				// floodWorld's token exchange spent one request of the
				// shared token's budget.
				want("one shared token from one address", flood(t, "shared token", w, from.one(base)), floodBurst-1)
				other := floodWorld(t, f, "flood-many-"+op.id, from, false)
				want("one shared token from many addresses", flood(t, "many addresses", other, from.each(other.base(t, op))), floodBurst-1)
				one, n := from.one(base), 0
				guess := func() sweepRequest {
					r := one()
					n++
					r.query = cloneValues(r.query)
					r.query.Set("token", fmt.Sprintf("%d.guess%d", time.Now().Add(time.Hour).Unix(), n))
					return r
				}
				want("guessed shared tokens from one address", flood(t, "guessed tokens", w, guess), floodBurst)
			}
			if !op.bearer {
				return
			}
			b := floodWorld(t, f, "flood-bearer-"+op.id, from, false)
			r := withBearer(b.base(t, op), b.tokenA)
			want("one offer from one address", flood(t, "bearer token", b, from.one(r)), floodBurst)
			want("one offer from many addresses", flood(t, "bearer token, many addresses", b, from.each(r)), 0)
			if resp := w.send(t, withAddress(withBearer(base, w.tokenA), from.next())); resp.Status == http.StatusTooManyRequests {
				t.Errorf("another offer's customer is refused: %s", resp.Body)
			}
			r.bearer = "a.b.c"
			want("refused bearer tokens from one address", flood(t, "refused bearer token", b, from.one(r)), floodBurst)
		})
	}
	t.Run("token exchange", func(t *testing.T) {
		w := floodWorld(t, f, "flood-exchange", from, false)
		exchange := func(address string) apitest.Response {
			req := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader(apitest.ExchangeForm(w.a, "").Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-Forwarded-For", address)
			return f.Harness.Send(t, req)
		}
		// floodWorld's exchange spent one request of the token's budget.
		for i := range floodBurst - 1 {
			if resp := exchange(from.next()); resp.Status != http.StatusOK {
				t.Fatalf("exchange %d: %d %s", i+2, resp.Status, resp.Body)
			}
		}
		resp := exchange(from.next())
		var oauth struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		resp.Decode(t, &oauth)
		if resp.Status != http.StatusTooManyRequests || oauth.Error != "temporarily_unavailable" || !strings.Contains(oauth.Description, "this offer's link") ||
			apitest.RetryAfter(t, resp) != 100 || apitest.QuotaHeaders(t, resp)[1] != 0 || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("an exchange over the shared token's budget: %d %v %s", resp.Status, resp.Header, resp.Body)
		}
	})
}

func withBearer(r sweepRequest, token string) sweepRequest {
	r.query = cloneValues(r.query)
	r.query.Del("token")
	r.bearer = token
	return r
}

func withAddress(r sweepRequest, address string) sweepRequest {
	r.header = clone(r.header)
	r.header["X-Forwarded-For"] = address
	return r
}
