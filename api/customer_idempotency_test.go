package api_test

import (
	"bytes"
	"net/http"
	"testing"
)

// The Customer-Facing API's POST operations honour Idempotency-Key like the
// Seller API's: keys of the operations anyone may call belong to the client's
// address, those of bearer operations to the token's offer.
func TestCustomerIdempotencyKeys(t *testing.T) {
	f := newCustomerFixture(t)
	h := f.h
	const contacts = "/customer/crm/contacts"
	lead := map[string]any{"properties": map[string]any{"email": "jane@company.example", "company": "Company GmbH"}}

	first := h.keyed(t, http.MethodPost, contacts, "", "lead-1", lead)
	retry := h.keyed(t, http.MethodPost, contacts, "", "lead-1", lead)
	if first.status != http.StatusCreated || retry.status != http.StatusCreated || retry.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("contact and its retry: %d, %d %v", first.status, retry.status, retry.header)
	}
	if n := h.count(t, "SELECT count(*) FROM leads"); n != 1 {
		t.Errorf("a retried contact was stored %d times", n)
	}
	other := map[string]any{"properties": map[string]any{"email": "john@company.example"}}
	if resp := h.keyed(t, http.MethodPost, contacts, "", "lead-1", other); resp.status != http.StatusUnprocessableEntity ||
		resp.errorName(t) != "IdempotencyKeyReused" {
		t.Errorf("the key with another contact: %d %s", resp.status, resp.body)
	}
	if resp := h.keyed(t, http.MethodPost, contacts, "", "", lead); resp.status != http.StatusBadRequest || resp.errorName(t) != "BadRequest" {
		t.Errorf("an empty key: %d %s", resp.status, resp.body)
	}

	mine, theirs := f.newCustomerOffer(t, "keys-1"), f.newCustomerOffer(t, "keys-2")
	f.createDiscountCode(t, map[string]any{"code": "SPRING-10", "percent_off": 1000})
	check := func(o customerOffer) response {
		return h.keyed(t, http.MethodPost, "/customer/discount/validate", h.customerToken(t, o, "discount:read"), "check-1",
			map[string]any{"discount_code": "SPRING-10", "offer_id": o.id})
	}
	firstCheck, again := check(mine), check(mine)
	if firstCheck.status != http.StatusOK || again.status != http.StatusOK || !bytes.Equal(again.body, firstCheck.body) ||
		again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("discount check and its retry: %d %s / %d %v %s", firstCheck.status, firstCheck.body, again.status, again.header, again.body)
	}
	// Another offer's customer sending the same key makes their own request.
	if resp := check(theirs); resp.status != http.StatusOK || resp.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("another offer's key: %d %v %s", resp.status, resp.header, resp.body)
	}
}
