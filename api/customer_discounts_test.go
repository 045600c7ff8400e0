package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/discounts"
)

func (f offerFixture) createDiscountCode(t *testing.T, body map[string]any) string {
	t.Helper()
	resp := f.h.do(t, http.MethodPost, "/v1/discount-codes", f.token, body)
	if resp.status != http.StatusCreated {
		t.Fatalf("create discount code: %d %s", resp.status, resp.body)
	}
	var c struct {
		ID string `json:"id"`
	}
	resp.decode(t, &c)
	return c.ID
}

func TestValidateDiscount(t *testing.T) {
	f := newCustomerFixture(t)
	h := f.h
	o := f.newCustomerOffer(t, "discount-1")
	token := h.customerToken(t, o, "discount:read")
	f.createDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	f.createDiscountCode(t, map[string]any{"code": "FIXED", "amount_off": map[string]any{"currency": "EUR", "net": 1000, "gross": 1190}})
	f.createDiscountCode(t, map[string]any{"code": "LATER", "percent_off": 500,
		"valid_from": time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)})
	gone := f.createDiscountCode(t, map[string]any{"code": "GONE", "percent_off": 500})
	if resp := h.do(t, http.MethodPost, "/v1/discount-codes/"+gone+"/deactivate", f.token, nil); resp.status != http.StatusOK {
		t.Fatalf("deactivate: %d %s", resp.status, resp.body)
	}
	once := f.createDiscountCode(t, map[string]any{"code": "ONCE", "percent_off": 500, "usage_limit": 1})
	// Another offer used it up (the acceptance redeems codes).
	used := f.newCustomerOffer(t, "discount-used")
	err := h.store.InTx(t.Context(), func(q *dbgen.Queries) error {
		_, err := discounts.Redeem(t.Context(), q, f.seller.Seller.ID, uuid.MustParse(used.id), "once", time.Now())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	validate := func(code, offerID string) response {
		return h.customer(t, http.MethodPost, "/discount/validate", token, map[string]any{"discount_code": code, "offer_id": offerID})
	}
	for _, code := range []string{"SPRING-10", "spring-10", "fixed"} {
		resp := validate(code, o.id)
		if resp.status != http.StatusOK || strings.TrimSpace(string(resp.body)) != `{"is_valid":true}` {
			t.Errorf("%s: %d %s", code, resp.status, resp.body)
		}
	}
	for code, want := range map[string]string{"NOPE": "not_found", "GONE": "expired", "ONCE": "exhausted", "LATER": "not_applicable"} {
		resp := validate(code, o.id)
		var e struct {
			Name, Message, Type string
		}
		resp.decode(t, &e)
		if resp.status != http.StatusUnprocessableEntity || e.Name != "InvalidDiscountCodeError" || e.Type != want || e.Message == "" ||
			!strings.HasPrefix(resp.header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: want %s, got %d %s", code, want, resp.status, resp.body)
		}
	}
	if resp := validate("SPRING-10", used.id); resp.status != http.StatusNotFound || resp.errorName(t) != "NotFound" {
		t.Errorf("another offer than the token's: %d %s", resp.status, resp.body)
	}
	if c, _ := h.store.GetDiscountCode(t.Context(), dbgen.GetDiscountCodeParams{SellerID: f.seller.Seller.ID, ID: uuid.MustParse(once)}); c.TimesUsed != 1 {
		t.Errorf("validation counts nothing: %d", c.TimesUsed)
	}

	// Another seller's code is not found for this seller's offer.
	otherSeller := h.seller(t)
	resp := h.do(t, http.MethodPost, "/v1/discount-codes", h.token(t, otherSeller, "client"), map[string]any{"code": "THEIRS", "percent_off": 100})
	if resp.status != http.StatusCreated {
		t.Fatal(resp.status)
	}
	if resp := validate("THEIRS", o.id); resp.status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.body), "not_found") {
		t.Errorf("another seller's code: %d %s", resp.status, resp.body)
	}

	if resp := h.do(t, http.MethodPost, "/v1/offers/"+o.id+"/void", f.token, map[string]any{}); resp.status != http.StatusOK {
		t.Fatalf("void: %d %s", resp.status, resp.body)
	}
	// Voiding the offer revoked its customer's token.
	if resp := validate("SPRING-10", o.id); resp.status != http.StatusUnauthorized || !strings.Contains(string(resp.body), "revoked") {
		t.Errorf("a voided offer takes no discount: %d %s", resp.status, resp.body)
	}
}
