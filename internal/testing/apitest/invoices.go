package apitest

import (
	"net/http"
	"testing"
)

// InvoicedContract is a started contract of an order whose customer has a
// billing address: its first installment fell due and was invoiced. It
// answers the order, the contract and the invoice.
func (f OfferFixture) InvoicedContract(t *testing.T, reference string) (orderID, contractID, invoiceID string) {
	t.Helper()
	payload := OfferPayload(reference)
	company := payload["customer"].(map[string]any)["company"].(map[string]any)
	company["billing_address"] = map[string]any{"line1": "Königsallee 9", "postal_code": "40212", "city": "Düsseldorf", "country_code": "DE"}
	o := f.CreateOffer(t, payload)
	f.MustSimulate(t, "mark_offer_for_review", o.ID)
	f.MustSimulate(t, "mark_offer_accepted", o.ID)
	store := f.Harness.Store
	if err := store.Pool.QueryRow(t.Context(), "SELECT id::text FROM orders WHERE offer_id = $1", o.ID).Scan(&orderID); err != nil {
		t.Fatal(err)
	}
	if resp := f.Harness.Do(t, http.MethodPost, "/v1/orders/"+orderID+"/accept", f.Token, nil); resp.Status != http.StatusOK {
		t.Fatalf("confirm order: %d %s", resp.Status, resp.Body)
	}
	if err := store.Pool.QueryRow(t.Context(), "SELECT id::text FROM rental_contracts WHERE order_id = $1", orderID).Scan(&contractID); err != nil {
		t.Fatal(err)
	}
	f.MustSimulate(t, "mark_contract_started", contractID)
	err := store.Pool.QueryRow(t.Context(), "SELECT id::text FROM invoices WHERE order_id = $1", orderID).Scan(&invoiceID)
	if err != nil {
		t.Fatalf("the started contract's invoice: %v", err)
	}
	return orderID, contractID, invoiceID
}

// CompletedOrder is a confirmed order whose two laptops and their cable
// were shipped: it
// is completed, and its seller is owed its payout. It answers the order
// and the payout.
func (f OfferFixture) CompletedOrder(t *testing.T, reference string) (orderID, payoutID string) {
	t.Helper()
	orderID, _ = f.ConfirmedContract(t, reference)
	items := []map[string]any{
		{"seller_product_reference": Ref("sku", "laptop"), "serial_number": reference + "-1"},
		{"seller_product_reference": Ref("sku", "laptop"), "serial_number": reference + "-2"},
		{"seller_product_reference": Ref("sku", "cable"), "serial_number": reference + "-3"},
	}
	resp := f.Harness.Do(t, http.MethodPost, "/v1/shipment", f.Token, map[string]any{
		"order_id": orderID, "serial_numbers": items, "tracking_url": "https://track.example/out",
	})
	if resp.Status != http.StatusOK {
		t.Fatalf("shipment: %d %s", resp.Status, resp.Body)
	}
	if err := f.Harness.Store.Pool.QueryRow(t.Context(), "SELECT id::text FROM payouts WHERE order_id = $1", orderID).Scan(&payoutID); err != nil {
		t.Fatalf("the completed order's payout: %v", err)
	}
	return orderID, payoutID
}
