package guard_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// The Customer-Facing API's POST operations honour Idempotency-Key like the
// Seller API's: keys of the operations anyone may call belong to the client's
// address, those of bearer operations to the token's offer.
func TestCustomerIdempotencyKeys(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	const contacts = "/customer/crm/contacts"
	lead := map[string]any{"properties": map[string]any{"email": "jane@company.example", "company": "Company GmbH"}}

	first := keyed(t, h, http.MethodPost, contacts, "", "lead-1", lead)
	retry := keyed(t, h, http.MethodPost, contacts, "", "lead-1", lead)
	if first.Status != http.StatusCreated || retry.Status != http.StatusCreated || retry.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("contact and its retry: %d, %d %v", first.Status, retry.Status, retry.Header)
	}
	if n := h.Count(t, "SELECT count(*) FROM leads"); n != 1 {
		t.Errorf("a retried contact was stored %d times", n)
	}
	other := map[string]any{"properties": map[string]any{"email": "john@company.example"}}
	if resp := keyed(t, h, http.MethodPost, contacts, "", "lead-1", other); resp.Status != http.StatusUnprocessableEntity ||
		resp.ErrorName(t) != "IdempotencyKeyReused" {
		t.Errorf("the key with another contact: %d %s", resp.Status, resp.Body)
	}
	if resp := keyed(t, h, http.MethodPost, contacts, "", "", lead); resp.Status != http.StatusBadRequest || resp.ErrorName(t) != "BadRequest" {
		t.Errorf("an empty key: %d %s", resp.Status, resp.Body)
	}

	mine, theirs := f.NewCustomerOffer(t, "keys-1"), f.NewCustomerOffer(t, "keys-2")
	f.CreateDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	check := func(o apitest.CustomerOffer) apitest.Response {
		return keyed(t, h, http.MethodPost, "/customer/discount/validate", h.CustomerToken(t, o, "discount:read"), "check-1",
			map[string]any{"discount_code": "SPRING-10", "offer_id": o.ID})
	}
	firstCheck, again := check(mine), check(mine)
	if firstCheck.Status != http.StatusOK || again.Status != http.StatusOK || !bytes.Equal(again.Body, firstCheck.Body) ||
		again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("discount check and its retry: %d %s / %d %v %s", firstCheck.Status, firstCheck.Body, again.Status, again.Header, again.Body)
	}
	// Another offer's customer sending the same key makes their own request.
	if resp := check(theirs); resp.Status != http.StatusOK || resp.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("another offer's key: %d %v %s", resp.Status, resp.Header, resp.Body)
	}
}
