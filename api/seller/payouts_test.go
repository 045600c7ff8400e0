package seller_test

import (
	"net/http"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// A completed order's payout is listed and shown as owed; unknown ids and
// statuses are refused.
func TestPayoutListAndShow(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	orderID, payoutID := f.CompletedOrder(t, "payout-1")

	type payoutView struct {
		ID       string `json:"id"`
		OrderID  string `json:"order_id"`
		Status   string `json:"status"`
		Financed int64  `json:"financed"`
		Fee      int64  `json:"fee"`
		Amount   int64  `json:"amount"`
	}
	var page struct {
		Payouts []payoutView `json:"payouts"`
	}
	resp := f.Harness.Do(t, http.MethodGet, "/v1/payouts?status=owed", f.Token, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("list: %d %s", resp.Status, resp.Body)
	}
	resp.Decode(t, &page)
	if len(page.Payouts) != 1 || page.Payouts[0].ID != payoutID || page.Payouts[0].OrderID != orderID || page.Payouts[0].Status != "owed" ||
		page.Payouts[0].Financed <= 0 || page.Payouts[0].Amount != page.Payouts[0].Financed-page.Payouts[0].Fee {
		t.Errorf("payouts %+v", page.Payouts)
	}
	var shown payoutView
	resp = f.Harness.Do(t, http.MethodGet, "/v1/payouts/"+payoutID, f.Token, nil)
	resp.Decode(t, &shown)
	if resp.Status != http.StatusOK || shown != page.Payouts[0] {
		t.Errorf("shown %d %+v", resp.Status, shown)
	}
	f.Harness.Do(t, http.MethodGet, "/v1/payouts?status=sent", f.Token, nil).Decode(t, &page)
	if len(page.Payouts) != 0 {
		t.Errorf("sent: %+v", page.Payouts)
	}
	if resp := f.Harness.Do(t, http.MethodGet, "/v1/payouts?status=paid", f.Token, nil); resp.Status != http.StatusBadRequest {
		t.Errorf("an unknown status: %d", resp.Status)
	}
	if resp := f.Harness.Do(t, http.MethodGet, "/v1/payouts/"+apitest.NewID(), f.Token, nil); resp.Status != http.StatusNotFound {
		t.Errorf("an unknown payout: %d", resp.Status)
	}
}
