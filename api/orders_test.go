package api_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

// acceptedOrder creates an offer, has it accepted and returns its order.
func (f offerFixture) acceptedOrder(t *testing.T, reference string) string {
	t.Helper()
	o := f.createOffer(t, offerPayload(reference))
	f.mustSimulate(t, "mark_offer_for_review", o.ID)
	f.mustSimulate(t, "mark_offer_accepted", o.ID)
	var id string
	if err := f.h.store.Pool.QueryRow(t.Context(), "SELECT id::text FROM orders WHERE offer_id = $1", o.ID).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func (f offerFixture) orderAction(t *testing.T, orderID, action string) response {
	t.Helper()
	return f.h.do(t, http.MethodPost, "/v1/orders/"+orderID+"/"+action, f.token, nil)
}

func TestOrderRefusals(t *testing.T) {
	f := newOfferFixture(t)
	id := f.acceptedOrder(t, "o1")
	if resp := f.orderAction(t, id, "accept"); resp.status != http.StatusOK {
		t.Fatalf("confirm: %d %s", resp.status, resp.body)
	}
	for action, want := range map[string]string{
		"reject":      "orders with status=confirmed cannot be rejected",
		"acknowledge": "orders with status=confirmed cannot be acknowledged",
		"accept":      "orders with status=confirmed cannot be accepted",
	} {
		resp := f.orderAction(t, id, action)
		if resp.status != http.StatusUnprocessableEntity || resp.apiError(t)["message"] != want {
			t.Errorf("%s: %d %s", action, resp.status, resp.body)
		}
	}

	rejected := f.acceptedOrder(t, "o2")
	if resp := f.orderAction(t, rejected, "reject"); resp.status != http.StatusOK {
		t.Fatalf("reject: %d %s", resp.status, resp.body)
	}
	// A rejected order's workflow has ended; the refusal still names the status.
	resp := f.orderAction(t, rejected, "accept")
	if resp.status != http.StatusUnprocessableEntity || resp.apiError(t)["message"] != "orders with status=rejected cannot be accepted" {
		t.Errorf("accepting a rejected order: %d %s", resp.status, resp.body)
	}
	for _, path := range []string{"/v1/orders/0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f/accept", "/v1/orders/not-a-uuid/accept"} {
		if resp := f.h.do(t, http.MethodPost, path, f.token, nil); resp.status != http.StatusNotFound {
			t.Errorf("%s: %d", path, resp.status)
		}
	}
}

func TestCancelOrderScenario(t *testing.T) {
	f := newOfferFixture(t)
	id := f.acceptedOrder(t, "c1")
	f.orderAction(t, id, "accept")
	f.mustSimulate(t, "mark_order_cancelled", id)
	o := f.getOrder(t, id)
	if o.Status != "canceled" {
		t.Fatalf("status %s", o.Status)
	}
	var canceledAt *string
	_ = f.h.store.Pool.QueryRow(t.Context(), "SELECT canceled_at::text FROM orders WHERE id = $1", id).Scan(&canceledAt)
	if canceledAt == nil {
		t.Error("canceled_at is not set")
	}
	if got := strings.Join(f.eventTypes(t, id), ","); got != "order.created,order.canceled" {
		t.Errorf("events %s", got)
	}
	resp := f.simulate(t, "mark_order_cancelled", map[string]any{"id": id})
	if resp.status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.body), "Error when simulating scenario mark_order_cancelled: orders with status=canceled cannot be canceled") {
		t.Errorf("cancelling twice: %d %s", resp.status, resp.body)
	}
}

func TestOrderMetadata(t *testing.T) {
	f := newOfferFixture(t)
	id := f.acceptedOrder(t, "m1")
	resp := f.h.do(t, http.MethodPatch, "/v1/orders/"+id, f.token, map[string]any{"metadata": map[string]any{"erp": "SO-7", "note": "fragile"}})
	var summary struct {
		ID       string            `json:"id"`
		Metadata map[string]string `json:"metadata"`
		Assets   []any             `json:"assets"`
	}
	resp.decode(t, &summary)
	if resp.status != http.StatusOK || summary.Metadata["erp"] != "SO-7" || summary.ID != id || len(summary.Assets) != 3 {
		t.Fatalf("set metadata: %d %s", resp.status, resp.body)
	}
	for name, body := range map[string]any{
		"value too long": map[string]any{"metadata": map[string]any{"erp": strings.Repeat("x", 401)}},
		"not a string":   map[string]any{"metadata": map[string]any{"erp": 7}},
		"no metadata":    map[string]any{},
	} {
		if resp := f.h.do(t, http.MethodPatch, "/v1/orders/"+id, f.token, body); resp.status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, resp.status, resp.body)
		}
	}
	var stored string
	_ = f.h.store.Pool.QueryRow(t.Context(), "SELECT metadata->>'erp' FROM orders WHERE id = $1", id).Scan(&stored)
	if stored != "SO-7" {
		t.Errorf("refused metadata changed the order: %q", stored)
	}
}

func TestOrdersAreIsolated(t *testing.T) {
	a, b := newOfferFixture(t), newOfferFixture(t)
	id := a.acceptedOrder(t, "i1")
	for _, req := range [][2]string{{"GET", "/v1/orders/" + id}, {"POST", "/v1/orders/" + id + "/accept"}, {"POST", "/v1/orders/" + id + "/reject"}} {
		if resp := b.h.do(t, req[0], req[1], b.token, nil); resp.status != http.StatusNotFound {
			t.Errorf("seller B %s %s: %d", req[0], req[1], resp.status)
		}
	}
	if resp := b.h.do(t, http.MethodPatch, "/v1/orders/"+id, b.token, map[string]any{"metadata": map[string]any{}}); resp.status != http.StatusNotFound {
		t.Errorf("seller B sets metadata: %d", resp.status)
	}
	resp := b.h.do(t, http.MethodPost, "/v1/shipment", b.token, map[string]any{"order_id": id, "serial_numbers": []map[string]any{{"seller_product_reference": ref("sku", "laptop"), "serial_number": "X"}}})
	if resp.status != http.StatusNotFound {
		t.Errorf("seller B ships A's order: %d", resp.status)
	}
	if got := a.getOrder(t, id); got.Status != "created" {
		t.Errorf("seller B changed A's order: %s", got.Status)
	}
}

// Two shipments of the same serial number race; exactly one wins.
func TestRacingShipmentsOfOneSerialNumber(t *testing.T) {
	f := newOfferFixture(t)
	first, second := f.acceptedOrder(t, "s1"), f.acceptedOrder(t, "s2")
	for _, id := range []string{first, second} {
		f.orderAction(t, id, "accept")
	}
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, id := range []string{first, second} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.h.do(t, http.MethodPost, "/v1/shipment", f.token, map[string]any{
				"order_id": id, "serial_numbers": []map[string]any{{"seller_product_reference": ref("sku", "laptop"), "serial_number": "SN-SHARED"}},
			}).status
		}()
	}
	wg.Wait()
	if !((statuses[0] == 200 && statuses[1] == 400) || (statuses[0] == 400 && statuses[1] == 200)) {
		t.Fatalf("statuses %v", statuses)
	}
	var shipped, shipments int
	_ = f.h.store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM order_assets WHERE serial_number = 'SN-SHARED'").Scan(&shipped)
	_ = f.h.store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM shipments WHERE order_id IN ($1, $2)", first, second).Scan(&shipments)
	if shipped != 1 || shipments != 1 {
		t.Errorf("%d assets carry the serial number, %d shipments recorded", shipped, shipments)
	}
}

func TestOrderLists(t *testing.T) {
	f := newOfferFixture(t)
	var ids []string
	for _, r := range []string{"l1", "l2", "l3"} {
		ids = append(ids, f.acceptedOrder(t, r))
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
	f.h.do(t, http.MethodGet, "/v1/orders/paginated?limit=2&page=1", f.token, nil).decode(t, &page)
	if len(page.Orders) != 1 || page.Orders[0].ID != ids[2] || page.Pagination.TotalCount != 3 || page.Pagination.TotalPages != 2 {
		t.Errorf("page 1 of 2: %+v", page)
	}
	f.h.do(t, http.MethodGet, "/v1/orders/paginated?sort_order=desc&id_lt="+ids[2], f.token, nil).decode(t, &page)
	if len(page.Orders) != 2 || page.Orders[0].ID != ids[1] || page.Orders[0].CompanyName != "Buyer GmbH" || page.Orders[0].AgentName != "Sam Seller" {
		t.Errorf("id_lt, descending: %+v", page.Orders)
	}
	var list struct {
		Orders []struct{ ID string } `json:"orders"`
	}
	f.h.do(t, http.MethodGet, "/v1/orders?query=l2", f.token, nil).decode(t, &list)
	if len(list.Orders) != 1 || list.Orders[0].ID != ids[1] {
		t.Errorf("the deprecated list with query: %+v", list)
	}
	for _, q := range []string{"limit=0", "page=-1", "sort_by=status", "created_at_gt=yesterday", "id_gt=nope"} {
		if resp := f.h.do(t, http.MethodGet, "/v1/orders/paginated?"+q, f.token, nil); resp.status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", q, resp.status, resp.body)
		}
	}
}

// A workflow and a row that disagree (here a row changed behind the
// workflow's back) are a fault, not a refusal: the answer is an opaque 500
// under the request's id, whatever the activity said.
func TestStatusMismatchIsAFault(t *testing.T) {
	f := newOfferFixture(t)
	id := f.acceptedOrder(t, "m1")
	if _, err := f.h.store.Pool.Exec(t.Context(), "UPDATE orders SET status = 'rejected' WHERE id = $1", id); err != nil {
		t.Fatal(err)
	}
	f.h.brokenOnPurpose = true
	resp := f.orderAction(t, id, "acknowledge")
	body := resp.apiError(t)
	if resp.status != http.StatusInternalServerError || body["name"] != "fault" || body["id"] != resp.header.Get("X-Request-Id") {
		t.Fatalf("got %d %s", resp.status, resp.body)
	}
	if strings.Contains(string(resp.body), "rejected") || strings.Contains(string(resp.body), id) {
		t.Errorf("the answer leaks the internal mismatch: %s", resp.body)
	}
}

// A change the database refuses for good (here a check constraint added
// behind the code's back) fails its activity at the first attempt as a
// permanent failure. The merchant gets an opaque 500 under the request's
// id, never a 422 carrying the failure's internal text, and the order
// keeps its status and its workflow, which makes the change once the
// database allows it.
func TestPermanentFailuresAreFaults(t *testing.T) {
	f := newOfferFixture(t)
	id := f.acceptedOrder(t, "pf1")
	ship := func() response {
		return f.h.do(t, http.MethodPost, "/v1/shipment", f.token, map[string]any{
			"order_id": id, "serial_numbers": []map[string]any{{"seller_product_reference": ref("sku", "laptop"), "serial_number": "SN-PF"}},
		})
	}
	for _, step := range []struct {
		name, constraint string
		send             func() response
		status           string
	}{
		{"accept", "ALTER TABLE orders ADD CONSTRAINT refuse_confirmed CHECK (status <> 'confirmed') NOT VALID",
			func() response { return f.orderAction(t, id, "accept") }, "confirmed"},
		{"ship", "ALTER TABLE shipments ADD CONSTRAINT refuse_shipments CHECK (false) NOT VALID", ship, "partially_fulfilled"},
	} {
		if _, err := f.h.store.Pool.Exec(t.Context(), step.constraint); err != nil {
			t.Fatal(err)
		}
		before := f.getOrder(t, id).Status
		f.h.brokenOnPurpose = true
		resp := step.send()
		f.h.brokenOnPurpose = false
		body := resp.apiError(t)
		if resp.status != http.StatusInternalServerError || body["name"] != "fault" || body["id"] != resp.header.Get("X-Request-Id") {
			t.Fatalf("%s: got %d %s", step.name, resp.status, resp.body)
		}
		for _, internal := range []string{"permanently", "PermanentFailure", "constraint", "refuse_", "SQLSTATE"} {
			if strings.Contains(string(resp.body), internal) {
				t.Errorf("%s: the answer leaks %q: %s", step.name, internal, resp.body)
			}
		}
		if got := f.getOrder(t, id).Status; got != before {
			t.Errorf("%s: the refused change moved the order from %s to %s", step.name, before, got)
		}
		if _, err := f.h.store.Pool.Exec(t.Context(), "ALTER TABLE orders DROP CONSTRAINT IF EXISTS refuse_confirmed; ALTER TABLE shipments DROP CONSTRAINT IF EXISTS refuse_shipments"); err != nil {
			t.Fatal(err)
		}
		if resp := step.send(); resp.status != http.StatusOK {
			t.Fatalf("%s once the database allows it: %d %s", step.name, resp.status, resp.body)
		}
		if got := f.getOrder(t, id).Status; got != step.status {
			t.Errorf("%s once the database allows it: the order is %s, want %s", step.name, got, step.status)
		}
	}
}
