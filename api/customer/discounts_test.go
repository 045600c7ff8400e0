package customer_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func TestValidateDiscount(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "discount-1")
	token := h.CustomerToken(t, o, "discount:read")
	f.CreateDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	f.CreateDiscountCode(t, map[string]any{"code": "FIXED", "amount_off": map[string]any{"currency": "EUR", "net": 1000, "gross": 1190}})
	f.CreateDiscountCode(t, map[string]any{"code": "LATER", "percent_off": 500,
		"valid_from": time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)})
	gone := f.CreateDiscountCode(t, map[string]any{"code": "GONE", "percent_off": 500})
	if resp := h.Do(t, http.MethodPost, "/v1/discount-codes/"+gone+"/deactivate", f.Token, nil); resp.Status != http.StatusOK {
		t.Fatalf("deactivate: %d %s", resp.Status, resp.Body)
	}
	once := f.CreateDiscountCode(t, map[string]any{"code": "ONCE", "percent_off": 500, "usage_limit": 1})
	// Another offer used it up (the acceptance redeems codes).
	used := f.NewCustomerOffer(t, "discount-used")
	err := h.Store.InTx(t.Context(), func(q *dbgen.Queries) error {
		_, err := discounts.Redeem(t.Context(), q, f.Seller.Seller.ID, uuid.MustParse(used.ID), "once", time.Now())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	validate := func(code, offerID string) apitest.Response {
		return h.Customer(t, http.MethodPost, "/discount/validate", token, map[string]any{"discount_code": code, "offer_id": offerID})
	}
	for _, code := range []string{"SPRING-10", "spring-10", "fixed"} {
		resp := validate(code, o.ID)
		if resp.Status != http.StatusOK || strings.TrimSpace(string(resp.Body)) != `{"is_valid":true}` {
			t.Errorf("%s: %d %s", code, resp.Status, resp.Body)
		}
	}
	for code, want := range map[string]string{"NOPE": "not_found", "GONE": "expired", "ONCE": "exhausted", "LATER": "not_applicable"} {
		resp := validate(code, o.ID)
		var e struct {
			Name, Message, Type string
		}
		resp.Decode(t, &e)
		if resp.Status != http.StatusUnprocessableEntity || e.Name != "InvalidDiscountCodeError" || e.Type != want || e.Message == "" ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: want %s, got %d %s", code, want, resp.Status, resp.Body)
		}
	}
	if resp := validate("SPRING-10", used.ID); resp.Status != http.StatusNotFound || resp.ErrorName(t) != "NotFound" {
		t.Errorf("another offer than the token's: %d %s", resp.Status, resp.Body)
	}
	if c, _ := h.Store.GetDiscountCode(t.Context(), dbgen.GetDiscountCodeParams{SellerID: f.Seller.Seller.ID, ID: uuid.MustParse(once)}); c.TimesUsed != 1 {
		t.Errorf("validation counts nothing: %d", c.TimesUsed)
	}

	// Another seller's code is not found for this seller's offer.
	otherSeller := h.Seller(t)
	resp := h.Do(t, http.MethodPost, "/v1/discount-codes", h.Token(t, otherSeller, "client"), map[string]any{"code": "THEIRS", "percent_off": 100})
	if resp.Status != http.StatusCreated {
		t.Fatal(resp.Status)
	}
	if resp := validate("THEIRS", o.ID); resp.Status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.Body), "not_found") {
		t.Errorf("another seller's code: %d %s", resp.Status, resp.Body)
	}

	if resp := h.Do(t, http.MethodPost, "/v1/offers/"+o.ID+"/void", f.Token, map[string]any{}); resp.Status != http.StatusOK {
		t.Fatalf("void: %d %s", resp.Status, resp.Body)
	}
	// Voiding the offer revoked its customer's token.
	if resp := validate("SPRING-10", o.ID); resp.Status != http.StatusUnauthorized || !strings.Contains(string(resp.Body), "revoked") {
		t.Errorf("a voided offer takes no discount: %d %s", resp.Status, resp.Body)
	}
}
