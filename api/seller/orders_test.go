package seller_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func orderAction(t *testing.T, f apitest.OfferFixture, orderID, action string) apitest.Response {
	t.Helper()
	return f.Harness.Do(t, http.MethodPost, "/v1/orders/"+orderID+"/"+action, f.Token, nil)
}

func TestOrderRefusals(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	id := f.AcceptedOrder(t, "o1")
	if resp := orderAction(t, f, id, "accept"); resp.Status != http.StatusOK {
		t.Fatalf("confirm: %d %s", resp.Status, resp.Body)
	}
	for action, want := range map[string]string{
		"reject":      "orders with status=confirmed cannot be rejected",
		"acknowledge": "orders with status=confirmed cannot be acknowledged",
		"accept":      "orders with status=confirmed cannot be accepted",
	} {
		resp := orderAction(t, f, id, action)
		if resp.Status != http.StatusUnprocessableEntity || resp.APIError(t)["message"] != want {
			t.Errorf("%s: %d %s", action, resp.Status, resp.Body)
		}
	}

	rejected := f.AcceptedOrder(t, "o2")
	if resp := orderAction(t, f, rejected, "reject"); resp.Status != http.StatusOK {
		t.Fatalf("reject: %d %s", resp.Status, resp.Body)
	}
	// A rejected order's workflow has ended; the refusal still names the status.
	resp := orderAction(t, f, rejected, "accept")
	if resp.Status != http.StatusUnprocessableEntity || resp.APIError(t)["message"] != "orders with status=rejected cannot be accepted" {
		t.Errorf("accepting a rejected order: %d %s", resp.Status, resp.Body)
	}
	for _, path := range []string{"/v1/orders/0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f/accept", "/v1/orders/not-a-uuid/accept"} {
		if resp := f.Harness.Do(t, http.MethodPost, path, f.Token, nil); resp.Status != http.StatusNotFound {
			t.Errorf("%s: %d", path, resp.Status)
		}
	}
}

func TestCancelOrderScenario(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	id := f.AcceptedOrder(t, "c1")
	orderAction(t, f, id, "accept")
	f.MustSimulate(t, "mark_order_cancelled", id)
	o := getOrder(t, f, id)
	if o.Status != "canceled" {
		t.Fatalf("status %s", o.Status)
	}
	var canceledAt *string
	_ = f.Harness.Store.Pool.QueryRow(t.Context(), "SELECT canceled_at::text FROM orders WHERE id = $1", id).Scan(&canceledAt)
	if canceledAt == nil {
		t.Error("canceled_at is not set")
	}
	if got := strings.Join(f.EventTypes(t, id), ","); got != "order.created,order.canceled" {
		t.Errorf("events %s", got)
	}
	resp := f.Simulate(t, "mark_order_cancelled", map[string]any{"id": id})
	if resp.Status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.Body), "Error when simulating scenario mark_order_cancelled: orders with status=canceled cannot be canceled") {
		t.Errorf("cancelling twice: %d %s", resp.Status, resp.Body)
	}
}

func TestOrderMetadata(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	id := f.AcceptedOrder(t, "m1")
	resp := f.Harness.Do(t, http.MethodPatch, "/v1/orders/"+id, f.Token, map[string]any{"metadata": map[string]any{"erp": "SO-7", "note": "fragile"}})
	var summary struct {
		ID       string            `json:"id"`
		Metadata map[string]string `json:"metadata"`
		Assets   []any             `json:"assets"`
	}
	resp.Decode(t, &summary)
	if resp.Status != http.StatusOK || summary.Metadata["erp"] != "SO-7" || summary.ID != id || len(summary.Assets) != 3 {
		t.Fatalf("set metadata: %d %s", resp.Status, resp.Body)
	}
	for name, body := range map[string]any{
		"value too long": map[string]any{"metadata": map[string]any{"erp": strings.Repeat("x", 401)}},
		"not a string":   map[string]any{"metadata": map[string]any{"erp": 7}},
		"no metadata":    map[string]any{},
	} {
		if resp := f.Harness.Do(t, http.MethodPatch, "/v1/orders/"+id, f.Token, body); resp.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, resp.Status, resp.Body)
		}
	}
	var stored string
	_ = f.Harness.Store.Pool.QueryRow(t.Context(), "SELECT metadata->>'erp' FROM orders WHERE id = $1", id).Scan(&stored)
	if stored != "SO-7" {
		t.Errorf("refused metadata changed the order: %q", stored)
	}
}

func TestOrdersAreIsolated(t *testing.T) {
	a, b := apitest.NewOfferFixture(t), apitest.NewOfferFixture(t)
	id := a.AcceptedOrder(t, "i1")
	for _, req := range [][2]string{{"GET", "/v1/orders/" + id}, {"POST", "/v1/orders/" + id + "/accept"}, {"POST", "/v1/orders/" + id + "/reject"}} {
		if resp := b.Harness.Do(t, req[0], req[1], b.Token, nil); resp.Status != http.StatusNotFound {
			t.Errorf("seller B %s %s: %d", req[0], req[1], resp.Status)
		}
	}
	if resp := b.Harness.Do(t, http.MethodPatch, "/v1/orders/"+id, b.Token, map[string]any{"metadata": map[string]any{}}); resp.Status != http.StatusNotFound {
		t.Errorf("seller B sets metadata: %d", resp.Status)
	}
	resp := b.Harness.Do(t, http.MethodPost, "/v1/shipment", b.Token, map[string]any{"order_id": id, "serial_numbers": []map[string]any{{"seller_product_reference": apitest.Ref("sku", "laptop"), "serial_number": "X"}}})
	if resp.Status != http.StatusNotFound {
		t.Errorf("seller B ships A's order: %d", resp.Status)
	}
	if got := getOrder(t, a, id); got.Status != "created" {
		t.Errorf("seller B changed A's order: %s", got.Status)
	}
}

// Two shipments of the same serial number race; exactly one wins.
func TestRacingShipmentsOfOneSerialNumber(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	first, second := f.AcceptedOrder(t, "s1"), f.AcceptedOrder(t, "s2")
	for _, id := range []string{first, second} {
		orderAction(t, f, id, "accept")
	}
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, id := range []string{first, second} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.Harness.Do(t, http.MethodPost, "/v1/shipment", f.Token, map[string]any{
				"order_id": id, "serial_numbers": []map[string]any{{"seller_product_reference": apitest.Ref("sku", "laptop"), "serial_number": "SN-SHARED"}},
			}).Status
		}()
	}
	wg.Wait()
	if !((statuses[0] == 200 && statuses[1] == 400) || (statuses[0] == 400 && statuses[1] == 200)) {
		t.Fatalf("statuses %v", statuses)
	}
	var shipped, shipments int
	_ = f.Harness.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM order_assets WHERE serial_number = 'SN-SHARED'").Scan(&shipped)
	_ = f.Harness.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM shipments WHERE order_id IN ($1, $2)", first, second).Scan(&shipments)
	if shipped != 1 || shipments != 1 {
		t.Errorf("%d assets carry the serial number, %d shipments recorded", shipped, shipments)
	}
}

func TestOrderLists(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	var ids []string
	for _, r := range []string{"l1", "l2", "l3"} {
		ids = append(ids, f.AcceptedOrder(t, r))
	}
	var page struct {
		Orders []struct {
			ID          string `json:"id"`
			CompanyName string `json:"company_name"`
			AgentName   string `json:"agent_name"`
		} `json:"orders"`
		Pagination struct {
			Page       int64 `json:"page"`
			PageSize   int64 `json:"page_size"`
			TotalCount int64 `json:"total_count"`
			TotalPages int64 `json:"total_pages"`
		} `json:"pagination"`
	}
	f.Harness.Do(t, http.MethodGet, "/v1/orders/paginated?limit=2&page=1", f.Token, nil).Decode(t, &page)
	if len(page.Orders) != 1 || page.Orders[0].ID != ids[2] || page.Pagination.TotalCount != 3 || page.Pagination.TotalPages != 2 {
		t.Errorf("page 1 of 2: %+v", page)
	}
	f.Harness.Do(t, http.MethodGet, "/v1/orders/paginated?sort_order=desc&id_lt="+ids[2], f.Token, nil).Decode(t, &page)
	if len(page.Orders) != 2 || page.Orders[0].ID != ids[1] || page.Orders[0].CompanyName != "Buyer GmbH" || page.Orders[0].AgentName != "Sam Seller" {
		t.Errorf("id_lt, descending: %+v", page.Orders)
	}
	var list struct {
		Orders []struct{ ID string } `json:"orders"`
	}
	f.Harness.Do(t, http.MethodGet, "/v1/orders?query=l2", f.Token, nil).Decode(t, &list)
	if len(list.Orders) != 1 || list.Orders[0].ID != ids[1] {
		t.Errorf("the deprecated list with query: %+v", list)
	}
	for _, q := range []string{"limit=0", "page=-1", "sort_by=status", "created_at_gt=yesterday", "id_gt=nope"} {
		if resp := f.Harness.Do(t, http.MethodGet, "/v1/orders/paginated?"+q, f.Token, nil); resp.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", q, resp.Status, resp.Body)
		}
	}
}

// A workflow and a row that disagree (here a row changed behind the
// workflow's back) are a fault, not a refusal: the answer is an opaque 500
// under the request's id, whatever the activity said.
func TestStatusMismatchIsAFault(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	id := f.AcceptedOrder(t, "m1")
	if _, err := f.Harness.Store.Pool.Exec(t.Context(), "UPDATE orders SET status = 'rejected' WHERE id = $1", id); err != nil {
		t.Fatal(err)
	}
	f.Harness.BrokenOnPurpose = true
	resp := orderAction(t, f, id, "acknowledge")
	body := resp.APIError(t)
	if resp.Status != http.StatusInternalServerError || body["name"] != "fault" || body["id"] != resp.Header.Get("X-Request-Id") {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	if strings.Contains(string(resp.Body), "rejected") || strings.Contains(string(resp.Body), id) {
		t.Errorf("the answer leaks the internal mismatch: %s", resp.Body)
	}
}

// A change the database refuses for good (here a check constraint added
// behind the code's back) fails its activity at the first attempt as a
// permanent failure. The merchant gets an opaque 500 under the request's
// id, never a 422 carrying the failure's internal text, and the order
// keeps its status and its workflow, which makes the change once the
// database allows it.
func TestPermanentFailuresAreFaults(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	id := f.AcceptedOrder(t, "pf1")
	ship := func() apitest.Response {
		return f.Harness.Do(t, http.MethodPost, "/v1/shipment", f.Token, map[string]any{
			"order_id": id, "serial_numbers": []map[string]any{{"seller_product_reference": apitest.Ref("sku", "laptop"), "serial_number": "SN-PF"}},
		})
	}
	for _, step := range []struct {
		name, constraint string
		send             func() apitest.Response
		status           string
	}{
		{"accept", "ALTER TABLE orders ADD CONSTRAINT refuse_confirmed CHECK (status <> 'confirmed') NOT VALID",
			func() apitest.Response { return orderAction(t, f, id, "accept") }, "confirmed"},
		{"ship", "ALTER TABLE shipments ADD CONSTRAINT refuse_shipments CHECK (false) NOT VALID", ship, "partially_fulfilled"},
	} {
		if _, err := f.Harness.Store.Pool.Exec(t.Context(), step.constraint); err != nil {
			t.Fatal(err)
		}
		before := getOrder(t, f, id).Status
		f.Harness.BrokenOnPurpose = true
		resp := step.send()
		f.Harness.BrokenOnPurpose = false
		body := resp.APIError(t)
		if resp.Status != http.StatusInternalServerError || body["name"] != "fault" || body["id"] != resp.Header.Get("X-Request-Id") {
			t.Fatalf("%s: got %d %s", step.name, resp.Status, resp.Body)
		}
		for _, internal := range []string{"permanently", "PermanentFailure", "constraint", "refuse_", "SQLSTATE"} {
			if strings.Contains(string(resp.Body), internal) {
				t.Errorf("%s: the answer leaks %q: %s", step.name, internal, resp.Body)
			}
		}
		if got := getOrder(t, f, id).Status; got != before {
			t.Errorf("%s: the refused change moved the order from %s to %s", step.name, before, got)
		}
		if _, err := f.Harness.Store.Pool.Exec(t.Context(), "ALTER TABLE orders DROP CONSTRAINT IF EXISTS refuse_confirmed; ALTER TABLE shipments DROP CONSTRAINT IF EXISTS refuse_shipments"); err != nil {
			t.Fatal(err)
		}
		if resp := step.send(); resp.Status != http.StatusOK {
			t.Fatalf("%s once the database allows it: %d %s", step.name, resp.Status, resp.Body)
		}
		if got := getOrder(t, f, id).Status; got != step.status {
			t.Errorf("%s once the database allows it: the order is %s, want %s", step.name, got, step.status)
		}
	}
}
