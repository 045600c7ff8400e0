package seller_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
)

// The sandbox's collection simulations settle a started contract's
// collection under way through its workflow: failed with a reason (in
// arrears), then, collected again the next day, paid (arrears cleared).
// Bad input is refused with 400, a contract with nothing under way with
// 422.
func TestCollectionSimulations(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	store := f.Harness.Store
	ring := collectiontest.Ring(t)
	runner := collectiontest.Runner(t, store, ring)
	id := startedContract(t, f, "collect-1")
	var offerID uuid.UUID
	if err := store.Pool.QueryRow(t.Context(), `SELECT o.offer_id FROM orders o JOIN rental_contracts c ON c.order_id = o.id WHERE c.id = $1`, id).Scan(&offerID); err != nil {
		t.Fatal(err)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	today := civil.DateOf(time.Now().In(berlin))
	collectiontest.Mandate(t, store, ring, f.Seller.Seller.ID, offerID, today.AddDays(-1), sepa.Core)

	for name, tc := range map[string]struct {
		scenario string
		input    map[string]any
		status   int
		message  string
	}{
		"no reason":         {"mark_installment_failed", map[string]any{"id": id}, 400, "field scenario_input.reason is required for mark_installment_failed"},
		"unknown reason":    {"mark_installment_failed", map[string]any{"id": id, "reason": "XX99"}, 400, `field scenario_input.reason "XX99" is not a SEPA return reason`},
		"not a uuid":        {"mark_installment_paid", map[string]any{"id": "nope"}, 400, `field scenario_input.id must be a UUID, got "nope"`},
		"nothing under way": {"mark_installment_paid", map[string]any{"id": id}, 422, "has no collection under way"},
	} {
		resp := f.Simulate(t, tc.scenario, tc.input)
		if resp.Status != tc.status || !strings.Contains(resp.APIError(t)["message"].(string), tc.message) {
			t.Errorf("%s: %d %s, want %d %q", name, resp.Status, resp.Body, tc.status, tc.message)
		}
	}

	collect := func(day civil.Date) {
		t.Helper()
		if _, err := runner.Submit(t.Context(), day); err != nil {
			t.Fatal(err)
		}
	}
	collect(today)
	if resp := f.Simulate(t, "mark_installment_failed", map[string]any{"id": id, "reason": "AM04"}); resp.Status != http.StatusOK {
		t.Fatalf("mark_installment_failed: %d %s", resp.Status, resp.Body)
	}
	if s := getContract(t, f, id).Schedule.Installments[0].Status; s != "failed" {
		t.Errorf("after mark_installment_failed the installment is %s", s)
	}
	collect(today.AddDays(1))
	f.MustSimulate(t, "mark_installment_paid", id)
	if s := getContract(t, f, id).Schedule.Installments[0].Status; s != "paid" {
		t.Errorf("after mark_installment_paid the installment is %s", s)
	}
	var kinds []string
	rows, err := store.Pool.Query(t.Context(), `SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id`, uuid.MustParse(id))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, k)
	}
	if got := strings.Join(kinds, " "); !strings.HasSuffix(got, "installment.failed contract.in_arrears contract.arrears_cleared") {
		t.Errorf("events %s, want the failure, the arrears and their end last", got)
	}
	if err := ledger.Check(t.Context(), store.Queries); err != nil {
		t.Errorf("ledger: %v", err)
	}
}
