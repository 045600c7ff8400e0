package guard_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// checkoutOnly are the properties of the anonymised offer that only an
// open offer's link shows: the customer's e-mail and VAT flag, the lines,
// the prices and the shipping.
var checkoutOnly = []string{"email", "customer_has_vat_number", "lines", "pricing_overview", "shipping", "has_single_term_duration", "payment_method_required"}

// customersData are values of the test offers' customer and customer data
// (offerPayload, validEndCustomer) that no status view may carry.
var customersData = []string{"buyer@example.com", "Berta", "Buyer GmbH", "DE123456789", "Invalidenstr", "030 1234567", "Main street"}

// withRedirects gives an offer the shop's redirects.
func withRedirects(p map[string]any) {
	p["success_redirect"] = "https://shop.example/done"
	p["exit_redirect"] = "https://shop.example/cart"
}

// anonymized reads an offer with its link's shared token.
func anonymized(t *testing.T, h *apitest.Harness, o apitest.CustomerOffer) map[string]any {
	t.Helper()
	resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/anonymized?token="+url.QueryEscape(o.Token), "", nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("the link's read: %d %s", resp.Status, resp.Body)
	}
	var v map[string]any
	resp.Decode(t, &v)
	return v
}

// checkStatusView checks that the link shows the offer's status alone.
func checkStatusView(t *testing.T, h *apitest.Harness, o apitest.CustomerOffer, reference, status string) map[string]any {
	t.Helper()
	v := anonymized(t, h, o)
	raw, _ := json.Marshal(v)
	for _, key := range checkoutOnly {
		if _, ok := v[key]; ok {
			t.Errorf("%s: the link's status view shows %s: %s", status, key, raw)
		}
	}
	for _, data := range customersData {
		if strings.Contains(string(raw), data) {
			t.Errorf("%s: the link's status view shows the customer's %q: %s", status, data, raw)
		}
	}
	if v["status"] != status || v["id"] != o.ID || v["seller_offer_reference"] != reference || v["seller_info"] == nil {
		t.Errorf("%s: the status view lacks the status, id, reference or seller: %s", status, raw)
	}
	return v
}

// checkReach sends every operation of customer.yaml that a customer's
// credentials open, with the token issued before the offer changed and
// with the link, and checks what each answers now.
func checkReach(t *testing.T, w sweepWorld, stage string, bearer int, bearerSays string) {
	t.Helper()
	for _, op := range customerOperations(t) {
		if op.bearer {
			r := w.base(t, op)
			r.query.Del("token")
			r.bearer = w.tokenA
			resp := w.send(t, r)
			if resp.Status != bearer || !strings.Contains(string(resp.Body), bearerSays) {
				t.Errorf("%s, %s with the customer's token: want %d %s, got %d %s", stage, op, bearer, bearerSays, resp.Status, resp.Body)
			}
		}
		if op.sharedToken {
			r := w.base(t, op)
			r.bearer = ""
			resp := w.send(t, r)
			want, says := http.StatusForbidden, `"OfferNotOpen: `
			if op.id == "getAnonymizedOffer" || op.id == "getAnonymizedBranding" {
				want, says = http.StatusOK, "{"
			}
			if resp.Status != want || !strings.HasPrefix(string(resp.Body), says) {
				t.Errorf("%s, %s with the link: want %d %s, got %d %s", stage, op, want, says, resp.Status, resp.Body)
			}
		}
	}
	resp := w.f.Harness.Exchange(t, apitest.ExchangeForm(w.a, ""))
	if resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), `"error":"invalid_grant"`) || !strings.Contains(string(resp.Body), "no access token is issued") {
		t.Errorf("%s: exchanging the link: %d %s", stage, resp.Status, resp.Body)
	}
}

// The link's reach follows the offer: while it is open, the link and the
// customer's token open the checkout; once the customer has accepted, the
// link opens the status alone, exchanging it yields no token, and the token
// issued before reads nothing (403); once the review has decided, the token
// is revoked (401). Every operation of the contract is tried at each stage.
func TestLinkReachFollowsTheOffer(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "reach-1", apitest.WithoutSublines, withRedirects)
	token := h.CustomerToken(t, o, "")
	w := sweepWorld{f: f, a: o, tokenA: token, lineA: o.View.Lines[0].ID}

	open := anonymized(t, h, o)
	for _, key := range checkoutOnly {
		if _, ok := open[key]; !ok {
			t.Errorf("the open offer's link does not show %s: %v", key, open)
		}
	}
	if open["success_redirect"] != "https://shop.example/done" || open["exit_redirect"] != "https://shop.example/cart" {
		t.Errorf("the link shows the shop's redirects: %v", open)
	}
	if resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/end-customer-info", token, nil); resp.Status != http.StatusOK {
		t.Fatalf("the open offer's customer data: %d %s", resp.Status, resp.Body)
	}

	at := f.ReadyToAccept(t, o, token)
	accepted := h.CustomerOffer(t, http.MethodPut, "/offers/"+o.ID+"/accept", token, map[string]any{"last_updated_at": at.Format(time.RFC3339Nano)})
	if accepted.Status != "pending_review" {
		t.Fatalf("accepted: %+v", accepted)
	}
	resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/end-customer-info", token, nil)
	if resp.Status != http.StatusForbidden || !strings.HasPrefix(string(resp.Body), `"OfferNotOpen: `) || strings.Contains(string(resp.Body), "Berta") {
		t.Errorf("the customer data after acceptance, with the token issued before: %d %s", resp.Status, resp.Body)
	}
	view := checkStatusView(t, h, o, "reach-1", "pending_review")
	if view["success_redirect"] != "https://shop.example/done" || view["exit_redirect"] != "https://shop.example/cart" {
		t.Errorf("the status view leads back to the shop: %v", view)
	}
	checkReach(t, w, "under review", http.StatusForbidden, `"OfferNotOpen: `)

	f.MustSimulate(t, "mark_offer_accepted", o.ID)
	checkStatusView(t, h, o, "reach-1", "accepted")
	checkReach(t, w, "accepted", http.StatusUnauthorized, "revoked")
	if resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/end-customer-info", token, nil); resp.Status != http.StatusUnauthorized {
		t.Errorf("the customer data of an accepted offer, with the token issued before: %d %s", resp.Status, resp.Body)
	}
}

// An offer under review that the review declines, or the seller voids,
// revokes its customer's token the same way.
func TestDecidedOffersRevokeCustomerTokens(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	for _, end := range []struct{ status, scenario string }{{"declined", "mark_offer_declined"}, {"voided", "mark_offer_voided"}} {
		o := f.NewCustomerOffer(t, "reach-"+end.status, apitest.WithoutSublines)
		token := h.CustomerToken(t, o, "offer:read")
		f.MustSimulate(t, "mark_offer_for_review", o.ID)
		if resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID, token, nil); resp.Status != http.StatusForbidden {
			t.Errorf("%s: the offer under review, with the token: %d %s", end.status, resp.Status, resp.Body)
		}
		f.MustSimulate(t, end.scenario, o.ID)
		checkStatusView(t, h, o, "reach-"+end.status, end.status)
		if resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID, token, nil); resp.Status != http.StatusUnauthorized || !strings.Contains(string(resp.Body), "revoked") {
			t.Errorf("%s: the offer, with the token issued before: %d %s", end.status, resp.Status, resp.Body)
		}
	}
}

// A seller's edit supersedes the offer: the customer's token is revoked at
// once, and the old link shows the status with the way to the new offer.
func TestSupersededOfferRevokesItsCustomerToken(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "reach-edit", apitest.WithoutSublines)
	token := h.CustomerToken(t, o, "")
	if resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/end-customer-info", token, nil); resp.Status != http.StatusOK {
		t.Fatalf("before the edit: %d %s", resp.Status, resp.Body)
	}
	resp := h.Do(t, http.MethodPut, "/v1/offers/"+o.ID, f.Token, apitest.OfferPayload("reach-edit-2", apitest.WithoutSublines))
	var edited apitest.OfferView
	resp.Decode(t, &edited)
	if resp.Status != http.StatusAccepted || edited.ID == "" || edited.ID == o.ID {
		t.Fatalf("edit: %d %s", resp.Status, resp.Body)
	}
	for _, path := range []string{"/offers/" + o.ID + "/end-customer-info", "/offers/" + o.ID, "/branding/offers/" + o.ID} {
		if resp := h.Customer(t, http.MethodGet, path, token, nil); resp.Status != http.StatusUnauthorized || !strings.Contains(string(resp.Body), "revoked") {
			t.Errorf("%s after the edit, with the token issued before: %d %s", path, resp.Status, resp.Body)
		}
	}
	view := checkStatusView(t, h, o, "reach-edit", "voided")
	if view["redirect_to_superseding_offer_url"] != edited.CheckoutURL || edited.CheckoutURL == "" {
		t.Errorf("the old link leads to the new offer %s: %v", edited.CheckoutURL, view)
	}
	if resp := h.Exchange(t, apitest.ExchangeForm(o, "")); resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), "invalid_grant") {
		t.Errorf("exchanging the old link: %d %s", resp.Status, resp.Body)
	}
	if !slices.Contains(f.EventTypes(t, o.ID), "offer.voided") {
		t.Error("the edit voided the old offer")
	}
}

// A server that listens for offer changes caches where each offer stands,
// and learns of a void from PostgreSQL: the customer's token is refused
// soon after, even by the seller's branding, which reads no offer.
func TestVoidRevokesCustomerTokensOfAListeningServer(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	serveListening(t, h)
	o := f.NewCustomerOffer(t, "reach-listening", apitest.WithoutSublines)
	token := h.CustomerToken(t, o, "")
	for range 3 {
		if resp := h.Customer(t, http.MethodGet, "/branding/offers/"+o.ID, token, nil); resp.Status != http.StatusOK {
			t.Fatalf("before the void: %d %s", resp.Status, resp.Body)
		}
	}
	f.MustSimulate(t, "mark_offer_voided", o.ID)
	voidedAt := time.Now()
	for {
		resp := h.Customer(t, http.MethodGet, "/branding/offers/"+o.ID, token, nil)
		if resp.Status == http.StatusUnauthorized {
			break
		}
		if resp.Status != http.StatusOK || time.Since(voidedAt) > 10*time.Second {
			t.Fatalf("the token %s after the void: %d %s", time.Since(voidedAt), resp.Status, resp.Body)
		}
	}
	t.Logf("the customer's token was refused %s after the void committed", time.Since(voidedAt))
	if resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/end-customer-info", token, nil); resp.Status != http.StatusUnauthorized {
		t.Errorf("the customer data of the voided offer: %d %s", resp.Status, resp.Body)
	}
}
