package seller_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// money is an amount of a contract.
type money struct {
	Currency string `json:"currency"`
	Net      int64  `json:"net"`
	Gross    int64  `json:"gross"`
	TaxRate  int64  `json:"tax_rate"`
}

// contractView is the part of a contract the tests read.
type contractView struct {
	ID                   string `json:"id"`
	OrderID              string `json:"order_id"`
	OfferID              string `json:"offer_id"`
	SellerOfferReference string `json:"seller_offer_reference"`
	Status               string `json:"status"`
	Product              struct {
		Title    string `json:"title"`
		Quantity int    `json:"quantity"`
	} `json:"product"`
	Assets []struct {
		Status       string  `json:"status"`
		SerialNumber *string `json:"serial_number"`
		Return       *struct {
			ReturnedOn  string `json:"returned_on"`
			TrackingURL string `json:"tracking_url"`
		} `json:"return"`
	} `json:"assets"`
	Rental struct {
		Months  int   `json:"months"`
		Monthly money `json:"monthly"`
	} `json:"rental"`
	Schedule *struct {
		Term struct {
			StartDate string `json:"start_date"`
			Months    int    `json:"months"`
		} `json:"term"`
		Installments []struct {
			Number  int    `json:"number"`
			DueDate string `json:"due_date"`
			Status  string `json:"status"`
		} `json:"installments"`
	} `json:"schedule"`
	EndDate    *string `json:"end_date"`
	NoticeDate *string `json:"notice_date"`
	EndOfTerm  *struct {
		BuyOut        money `json:"buy_out"`
		TermExtension struct {
			Months int `json:"months"`
		} `json:"term_extension"`
	} `json:"end_of_term"`
	Extensions []struct {
		Mode          string `json:"mode"`
		WithoutChoice bool   `json:"without_choice"`
	} `json:"extensions"`
	Outcome *struct {
		Status  string `json:"status"`
		EndedOn string `json:"ended_on"`
		Charge  *struct {
			Kind   string `json:"kind"`
			Amount money  `json:"amount"`
		} `json:"charge"`
	} `json:"outcome"`
}

// contractResponse decodes a contract answered with 200.
func contractResponse(t *testing.T, what string, resp apitest.Response) contractView {
	t.Helper()
	if resp.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", what, resp.Status, resp.Body)
	}
	var c contractView
	resp.Decode(t, &c)
	return c
}

func getContract(t *testing.T, f apitest.OfferFixture, id string) contractView {
	t.Helper()
	return contractResponse(t, "get contract", f.Harness.Do(t, http.MethodGet, "/v1/contracts/"+id, f.Token, nil))
}

// contractAction posts to one of a contract's operations.
func contractAction(t *testing.T, f apitest.OfferFixture, id, action string, body any) apitest.Response {
	t.Helper()
	return f.Harness.Do(t, http.MethodPost, "/v1/contracts/"+id+"/"+action, f.Token, body)
}

// advanceClock runs advance_contract_clock and wants 200.
func advanceClock(t *testing.T, f apitest.OfferFixture, id string, input map[string]any) {
	t.Helper()
	input["id"] = id
	if resp := f.Simulate(t, "advance_contract_clock", input); resp.Status != http.StatusOK {
		t.Fatalf("advance_contract_clock %v: %d %s", input, resp.Status, resp.Body)
	}
}

// startedContract is a confirmed contract whose term the sandbox started
// without a shipment.
func startedContract(t *testing.T, f apitest.OfferFixture, reference string) string {
	t.Helper()
	_, id := f.ConfirmedContract(t, reference)
	f.MustSimulate(t, "mark_contract_started", id)
	return id
}

// endingContract is a started contract whose clock reached its notice
// date: its end-of-term options are offered.
func endingContract(t *testing.T, f apitest.OfferFixture, reference string) contractView {
	t.Helper()
	id := startedContract(t, f, reference)
	advanceClock(t, f, id, map[string]any{"to": *getContract(t, f, id).NoticeDate})
	c := getContract(t, f, id)
	if c.Status != "ending" || c.EndOfTerm == nil {
		t.Fatalf("at the notice date: %s, end of term %v", c.Status, c.EndOfTerm)
	}
	return c
}

// shippedContract is a confirmed contract whose two laptops were shipped
// with serial numbers, which started its term.
func shippedContract(t *testing.T, f apitest.OfferFixture, reference string, serials ...string) string {
	t.Helper()
	orderID, id := f.ConfirmedContract(t, reference)
	items := make([]map[string]any, len(serials))
	for i, sn := range serials {
		items[i] = map[string]any{"seller_product_reference": apitest.Ref("sku", "laptop"), "serial_number": sn}
	}
	resp := f.Harness.Do(t, http.MethodPost, "/v1/shipment", f.Token, map[string]any{
		"order_id": orderID, "serial_numbers": items, "tracking_url": "https://track.example/out",
	})
	if resp.Status != http.StatusOK {
		t.Fatalf("shipment: %d %s", resp.Status, resp.Body)
	}
	// The order's workflow signals the shipment to the contract's, which
	// starts the term after the shipment is answered.
	for deadline := time.Now().Add(30 * time.Second); getContract(t, f, id).Status != "running"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the shipment did not start the contract: %s", getContract(t, f, id).Status)
		}
	}
	return id
}

// wantRefusal wants a 422 with the contract's error object and a message.
func wantRefusal(t *testing.T, what string, resp apitest.Response, message string) {
	t.Helper()
	if resp.Status != http.StatusUnprocessableEntity || resp.APIError(t)["message"] != message {
		t.Errorf("%s: %d %s, want 422 %q", what, resp.Status, resp.Body, message)
	}
}

func TestContractListAndShow(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	firstOrder, first := f.ConfirmedContract(t, "list-1")
	_, second := f.ConfirmedContract(t, "list-2")
	_, third := f.ConfirmedContract(t, "list-3")
	f.MustSimulate(t, "mark_contract_started", second)

	c := getContract(t, f, second)
	if c.ID != second || c.Status != "running" || c.SellerOfferReference != "list-2" || c.OrderID == "" || c.OfferID == "" {
		t.Errorf("contract: %+v", c)
	}
	if c.Product.Title != "Laptop 14" || c.Product.Quantity != 2 || len(c.Assets) != 2 || c.Rental.Months != 36 {
		t.Errorf("product %+v, %d assets, rental %+v", c.Product, len(c.Assets), c.Rental)
	}
	if c.Schedule == nil || c.Schedule.Term.Months != 36 || len(c.Schedule.Installments) != 36 || c.Schedule.Installments[0].Status != "due" {
		t.Fatalf("schedule: %+v", c.Schedule)
	}
	if c.EndDate == nil || c.NoticeDate == nil || c.EndOfTerm != nil || c.Outcome != nil {
		t.Errorf("dates %v %v, end of term %v, outcome %v", c.EndDate, c.NoticeDate, c.EndOfTerm, c.Outcome)
	}
	if waiting := getContract(t, f, first); waiting.Status != "awaiting_delivery" || waiting.Schedule != nil || waiting.EndDate != nil {
		t.Errorf("a contract awaiting delivery: %+v", waiting)
	}

	type page struct {
		Contracts  []contractView `json:"contracts"`
		Pagination struct {
			Page       int `json:"page"`
			PageSize   int `json:"page_size"`
			TotalCount int `json:"total_count"`
			TotalPages int `json:"total_pages"`
		} `json:"pagination"`
	}
	list := func(query string) page {
		t.Helper()
		resp := f.Harness.Do(t, http.MethodGet, "/v1/contracts"+query, f.Token, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("list %s: %d %s", query, resp.Status, resp.Body)
		}
		var p page
		resp.Decode(t, &p)
		return p
	}
	ids := func(p page) string {
		var out []string
		for _, c := range p.Contracts {
			out = append(out, c.ID)
		}
		return strings.Join(out, ",")
	}
	for query, want := range map[string]string{
		"":                                  first + "," + second + "," + third,
		"?status=running":                   second,
		"?status=awaiting_delivery":         first + "," + third,
		"?status=returned":                  "",
		"?order_id=" + firstOrder:           first,
		"?ending_before=" + *c.EndDate:      "",
		"?ending_before=2099-01-01":         second,
		"?limit=1&page=1":                   second,
		"?limit=2&page=1":                   third,
		"?id_gt=" + first:                   second + "," + third,
		"?id_gt=" + first + "&limit=1":      second,
		"?id_gt=" + strings.ToUpper(second): third,
		"?status=awaiting_delivery&limit=1": first,
	} {
		if got := ids(list(query)); got != want {
			t.Errorf("list%s: %s, want %s", query, got, want)
		}
	}
	if p := list("?limit=2"); p.Pagination.TotalCount != 3 || p.Pagination.TotalPages != 2 || p.Pagination.PageSize != 2 || p.Pagination.Page != 0 {
		t.Errorf("pagination: %+v", p.Pagination)
	}
	if p := list("?limit=500"); p.Pagination.PageSize != 100 {
		t.Errorf("limit 500 gives pages of %d, want 100", p.Pagination.PageSize)
	}
	for _, query := range []string{"?limit=0", "?page=-1", "?status=lost", "?order_id=nope", "?ending_before=2030-13-01", "?id_gt=1"} {
		if resp := f.Harness.Do(t, http.MethodGet, "/v1/contracts"+query, f.Token, nil); resp.Status != http.StatusBadRequest {
			t.Errorf("list%s: %d %s, want 400", query, resp.Status, resp.Body)
		}
	}
	for _, id := range []string{apitest.NewID(), "not-a-uuid"} {
		if resp := f.Harness.Do(t, http.MethodGet, "/v1/contracts/"+id, f.Token, nil); resp.Status != http.StatusNotFound {
			t.Errorf("get %s: %d", id, resp.Status)
		}
	}
}

func TestContractReturn(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	id := shippedContract(t, f, "return-1", "SN-1", "SN-2")
	const back = "https://track.example/back"
	wantRefusal(t, "a return while running", contractAction(t, f, id, "returns", map[string]any{"serial_numbers": []string{"SN-1"}, "tracking_url": back}),
		"contracts with status=running cannot be returned")

	c := getContract(t, f, id)
	end, err := time.Parse(time.DateOnly, *c.EndDate)
	if err != nil {
		t.Fatal(err)
	}
	// The day after the end date without a choice: month by month.
	advanceClock(t, f, id, map[string]any{"to": end.AddDate(0, 0, 1).Format(time.DateOnly)})
	if c = getContract(t, f, id); c.Status != "monthly" || len(c.Extensions) != 1 || !c.Extensions[0].WithoutChoice {
		t.Fatalf("after the end date: %s %+v", c.Status, c.Extensions)
	}

	for name, tc := range map[string]struct {
		body    map[string]any
		message string
	}{
		"no serial number": {map[string]any{"serial_numbers": []string{}, "tracking_url": back}, "field serial_numbers must list at least one returned asset"},
		"empty":            {map[string]any{"serial_numbers": []string{""}, "tracking_url": back}, "field serial_numbers[0] must not be empty"},
		"repeated":         {map[string]any{"serial_numbers": []string{"SN-1", "SN-1"}, "tracking_url": back}, `field serial_numbers[1] repeats "SN-1"`},
		"javascript link":  {map[string]any{"serial_numbers": []string{"SN-1"}, "tracking_url": "javascript:alert(1)"}, "field tracking_url"},
		"no link":          {map[string]any{"serial_numbers": []string{"SN-1"}}, "tracking_url"},
	} {
		resp := contractAction(t, f, id, "returns", tc.body)
		if resp.Status != http.StatusBadRequest || !strings.Contains(resp.APIError(t)["message"].(string), tc.message) {
			t.Errorf("%s: %d %s, want 400 naming %q", name, resp.Status, resp.Body, tc.message)
		}
	}
	resp := contractAction(t, f, id, "returns", map[string]any{"serial_numbers": []string{"SN-9"}, "tracking_url": back})
	if resp.Status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.Body), "SN-9") {
		t.Errorf("an unknown serial number: %d %s", resp.Status, resp.Body)
	}

	c = contractResponse(t, "return of SN-1", contractAction(t, f, id, "returns", map[string]any{"serial_numbers": []string{"SN-1"}, "tracking_url": back}))
	if c.Status != "monthly" || c.Assets[0].Status != "returned" || c.Assets[0].Return == nil || c.Assets[0].Return.TrackingURL != back || c.Assets[1].Return != nil {
		t.Fatalf("after one return: %s %+v", c.Status, c.Assets)
	}
	c = contractResponse(t, "return of SN-2", contractAction(t, f, id, "returns", map[string]any{"serial_numbers": []string{"SN-2"}, "tracking_url": back}))
	if c.Status != "returned" || c.Outcome == nil || c.Outcome.Status != "returned" || c.Outcome.Charge != nil {
		t.Fatalf("after the last return: %s %+v", c.Status, c.Outcome)
	}
	wantRefusal(t, "a return after the end", contractAction(t, f, id, "returns", map[string]any{"serial_numbers": []string{"SN-2"}, "tracking_url": back}),
		"contracts with status=returned cannot be returned")
}

func TestContractBuyOut(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	_, waiting := f.ConfirmedContract(t, "buy-0")
	wantRefusal(t, "buying out a contract awaiting delivery", contractAction(t, f, waiting, "buy-out", nil),
		"contracts with status=awaiting_delivery cannot be bought out")
	running := startedContract(t, f, "buy-1")
	wantRefusal(t, "buying out a running contract", contractAction(t, f, running, "buy-out", nil),
		"contracts with status=running cannot be bought out")

	ending := endingContract(t, f, "buy-2")
	keyed := func() apitest.Response {
		req := httptest.NewRequest(http.MethodPost, "/v1/contracts/"+ending.ID+"/buy-out", nil)
		req.Header.Set("Authorization", "Bearer "+f.Token)
		req.Header.Set("Idempotency-Key", "buy-out-"+ending.ID)
		return f.Harness.Send(t, req)
	}
	first := keyed()
	c := contractResponse(t, "buy-out", first)
	if c.Status != "bought_out" || c.Outcome == nil || c.Outcome.Status != "bought_out" || c.Outcome.Charge == nil ||
		c.Outcome.Charge.Kind != "buy_out" || c.Outcome.Charge.Amount != ending.EndOfTerm.BuyOut {
		t.Fatalf("bought out: %s %+v, end of term %+v", c.Status, c.Outcome, ending.EndOfTerm)
	}
	if got := getContract(t, f, ending.ID); got.Status != "bought_out" {
		t.Errorf("read after the buy-out: %s", got.Status)
	}
	retry := keyed()
	if retry.Status != http.StatusOK || !bytes.Equal(retry.Body, first.Body) || retry.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %v %s", retry.Status, retry.Header, retry.Body)
	}
	if n := f.Harness.Count(t, "SELECT count(*) FROM contract_charges WHERE contract_id = $1", ending.ID); n != 1 {
		t.Errorf("%d charges after a replayed buy-out, want 1", n)
	}
	wantRefusal(t, "buying out twice", contractAction(t, f, ending.ID, "buy-out", nil), "contracts with status=bought_out cannot be bought out")
}

func TestContractExtensions(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	byTerm := endingContract(t, f, "ext-term")
	c := contractResponse(t, "term extension", contractAction(t, f, byTerm.ID, "extensions", map[string]any{"mode": "term"}))
	months := byTerm.EndOfTerm.TermExtension.Months
	if c.Status != "running" || len(c.Extensions) != 1 || c.Extensions[0].Mode != "term" || c.Extensions[0].WithoutChoice ||
		c.Schedule.Term.Months != 36+months || len(c.Schedule.Installments) != 36+months || *c.EndDate == *byTerm.EndDate || c.EndOfTerm != nil {
		t.Errorf("extended by a term of %d months: %s %+v, %d months, end %s", months, c.Status, c.Extensions, c.Schedule.Term.Months, *c.EndDate)
	}
	wantRefusal(t, "extending a running contract", contractAction(t, f, byTerm.ID, "extensions", map[string]any{"mode": "monthly"}),
		"contracts with status=running cannot be extended")

	monthly := endingContract(t, f, "ext-monthly")
	c = contractResponse(t, "monthly extension", contractAction(t, f, monthly.ID, "extensions", map[string]any{"mode": "monthly"}))
	if c.Status != "monthly" || len(c.Extensions) != 1 || c.Extensions[0].Mode != "monthly" {
		t.Errorf("extended month by month: %s %+v", c.Status, c.Extensions)
	}
	wantRefusal(t, "month by month twice", contractAction(t, f, monthly.ID, "extensions", map[string]any{"mode": "monthly"}),
		"contracts with status=monthly cannot be extended in mode monthly")
	for _, body := range []any{map[string]any{"mode": "yearly"}, map[string]any{}, nil} {
		if resp := contractAction(t, f, monthly.ID, "extensions", body); resp.Status != http.StatusBadRequest {
			t.Errorf("extension %v: %d %s, want 400", body, resp.Status, resp.Body)
		}
	}
}

func TestContractTermination(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	_, waiting := f.ConfirmedContract(t, "term-0")
	wantRefusal(t, "quoting a contract awaiting delivery", f.Harness.Do(t, http.MethodGet, "/v1/contracts/"+waiting+"/termination-quote", f.Token, nil),
		"contracts with status=awaiting_delivery cannot be quoted for termination")

	id := startedContract(t, f, "term-1")
	advanceClock(t, f, id, map[string]any{"months": 12})
	resp := f.Harness.Do(t, http.MethodGet, "/v1/contracts/"+id+"/termination-quote", f.Token, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("quote: %d %s", resp.Status, resp.Body)
	}
	var quote struct {
		ID           string `json:"id"`
		ContractID   string `json:"contract_id"`
		Installments []any  `json:"installments"`
		Total        money  `json:"total"`
		AcceptedAt   *string
	}
	resp.Decode(t, &quote)
	if quote.ContractID != id || len(quote.Installments) != 23 || quote.Total.Net <= 0 || quote.AcceptedAt != nil {
		t.Fatalf("quote: %s", resp.Body)
	}
	if resp := contractAction(t, f, id, "termination", map[string]any{"quote_id": apitest.NewID()}); resp.Status != http.StatusUnprocessableEntity {
		t.Errorf("terminating with a quote the contract does not have: %d %s", resp.Status, resp.Body)
	}
	c := contractResponse(t, "termination", contractAction(t, f, id, "termination", map[string]any{"quote_id": quote.ID}))
	if c.Status != "terminated" || c.Outcome == nil || c.Outcome.Charge == nil || c.Outcome.Charge.Kind != "early_termination" || c.Outcome.Charge.Amount != quote.Total {
		t.Fatalf("terminated: %s %+v, quote total %+v", c.Status, c.Outcome, quote.Total)
	}
	wantRefusal(t, "terminating twice", contractAction(t, f, id, "termination", map[string]any{"quote_id": quote.ID}),
		"contracts with status=terminated cannot be terminated")
	wantRefusal(t, "quoting a terminated contract", f.Harness.Do(t, http.MethodGet, "/v1/contracts/"+id+"/termination-quote", f.Token, nil),
		"contracts with status=terminated cannot be quoted for termination")
	if resp := contractAction(t, f, id, "termination", map[string]any{"quote_id": "nope"}); resp.Status != http.StatusBadRequest {
		t.Errorf("a malformed quote id: %d %s", resp.Status, resp.Body)
	}
}

func TestContractSimulations(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	_, waiting := f.ConfirmedContract(t, "sim-0")
	running := startedContract(t, f, "sim-1")
	unknown := apitest.NewID()
	for name, tc := range map[string]struct {
		scenario string
		input    map[string]any
		status   int
		message  string
	}{
		"both":             {"advance_contract_clock", map[string]any{"id": running, "months": 1, "to": "2099-01-01"}, 400, "fields scenario_input.months and scenario_input.to exclude each other"},
		"neither":          {"advance_contract_clock", map[string]any{"id": running}, 400, "field scenario_input.months or scenario_input.to is required"},
		"zero months":      {"advance_contract_clock", map[string]any{"id": running, "months": 0}, 400, "field scenario_input.months must be between 1 and 120, got 0"},
		"negative months":  {"advance_contract_clock", map[string]any{"id": running, "months": -3}, 400, "field scenario_input.months must be between 1 and 120, got -3"},
		"too many months":  {"advance_contract_clock", map[string]any{"id": running, "months": 121}, 400, "field scenario_input.months must be between 1 and 120, got 121"},
		"not a day":        {"advance_contract_clock", map[string]any{"id": running, "to": "next week"}, 400, "scenario_input.to"},
		"no id":            {"advance_contract_clock", map[string]any{"months": 1}, 400, "field scenario_input.id is required for advance_contract_clock"},
		"not a uuid":       {"mark_contract_started", map[string]any{"id": "nope"}, 400, `field scenario_input.id must be a UUID, got "nope"`},
		"in the past":      {"advance_contract_clock", map[string]any{"id": running, "to": "2020-01-01"}, 422, "Error when simulating scenario advance_contract_clock: the contract's clock reads "},
		"too far":          {"advance_contract_clock", map[string]any{"id": running, "to": "2299-01-01"}, 422, "the clock moves at most 120 months at once"},
		"unknown contract": {"advance_contract_clock", map[string]any{"id": unknown, "months": 1}, 422, "Error when simulating scenario advance_contract_clock: contract " + unknown + " not found"},
		"started twice":    {"mark_contract_started", map[string]any{"id": running}, 422, "Error when simulating scenario mark_contract_started: contracts with status=running cannot be started"},
	} {
		resp := f.Simulate(t, tc.scenario, tc.input)
		if resp.Status != tc.status || !strings.Contains(resp.APIError(t)["message"].(string), tc.message) {
			t.Errorf("%s: %d %s, want %d %q", name, resp.Status, resp.Body, tc.status, tc.message)
		}
	}
	if c := getContract(t, f, running); len(c.Schedule.Installments) != 36 || c.Schedule.Installments[1].Status != "scheduled" {
		t.Errorf("refused simulations moved the clock: %+v", c.Schedule.Installments[:2])
	}
	// A contract awaiting delivery has a clock too; its term starts on
	// the day the clock reads.
	advanceClock(t, f, waiting, map[string]any{"months": 2})
	f.MustSimulate(t, "mark_contract_started", waiting)
	started, moved := getContract(t, f, waiting), getContract(t, f, running)
	if want := addMonths(t, moved.Schedule.Term.StartDate, 2); started.Schedule.Term.StartDate != want {
		t.Errorf("started after two months on its clock: %s, want %s", started.Schedule.Term.StartDate, want)
	}
}

// addMonths is a day some months after another.
func addMonths(t *testing.T, day string, months int) string {
	t.Helper()
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		t.Fatal(err)
	}
	return d.AddDate(0, months, 0).Format(time.DateOnly)
}

// A 36-month contract runs to its end on the sandbox clock: its shipment
// starts it, the clock moves through its installments and its notice, its
// assets come back on its end date and it ends the day after; a real
// receiver gets every contract event in order, each carrying the contract
// as GET /v1/contracts/{id} showed it then.
func TestContractRunsToItsEnd(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	receiver := testenv.NewReceiver(t, testenv.Always(http.StatusNoContent))
	resp := f.Harness.Do(t, http.MethodPost, "/v1/webhook-endpoints", f.Token, map[string]any{
		"url":    receiver.URL,
		"events": []string{"contract.started", "contract.installment_due", "contract.ending", "contract.extended", "contract.ended", "contract.terminated", "contract.canceled"},
	})
	if resp.Status != http.StatusCreated {
		t.Fatalf("webhook endpoint: %d %s", resp.Status, resp.Body)
	}
	id := shippedContract(t, f, "run-1", "SN-A", "SN-B")
	c := getContract(t, f, id)
	if c.Rental.Months != 36 {
		t.Fatalf("a %d-month contract", c.Rental.Months)
	}
	advanceClock(t, f, id, map[string]any{"months": 12})
	advanceClock(t, f, id, map[string]any{"months": 12})
	advanceClock(t, f, id, map[string]any{"to": *c.EndDate})
	c = contractResponse(t, "return", contractAction(t, f, id, "returns", map[string]any{"serial_numbers": []string{"SN-A", "SN-B"}, "tracking_url": "https://track.example/back"}))
	if c.Status != "ending" {
		t.Fatalf("every asset back on the end date: %s", c.Status)
	}
	end, _ := time.Parse(time.DateOnly, *c.EndDate)
	advanceClock(t, f, id, map[string]any{"to": end.AddDate(0, 0, 1).Format(time.DateOnly)})
	final := f.Harness.Do(t, http.MethodGet, "/v1/contracts/"+id, f.Token, nil)
	c = contractResponse(t, "the ended contract", final)
	if c.Status != "returned" || c.Outcome == nil || c.Outcome.EndedOn != end.AddDate(0, 0, 1).Format(time.DateOnly) {
		t.Fatalf("the day after the end date: %s %+v", c.Status, c.Outcome)
	}
	for i, inst := range c.Schedule.Installments {
		if inst.Status != "due" {
			t.Errorf("installment %d: %s", i+1, inst.Status)
		}
	}

	// The notice comes in date order among the installments: in the event
	// log, which keeps the order the events were recorded in. Deliveries
	// run one workflow per event, so the receiver gets the same events in
	// whatever order their attempts arrive.
	want := []string{"contract.started"}
	for _, inst := range c.Schedule.Installments {
		if inst.DueDate > *c.NoticeDate && !slices.Contains(want, "contract.ending") {
			want = append(want, "contract.ending")
		}
		want = append(want, "contract.installment_due")
	}
	want = append(want, "contract.ended")
	receiver.WaitDelivered(t, len(want), time.Minute)
	var got []string
	var last map[string]any // the body of contract.ended, the contract as it ended
	for _, r := range receiver.Requests() {
		eventType := r.Header.Get("webhook-event-type")
		got = append(got, eventType)
		var body map[string]any
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("event body: %v %s", err, r.Body)
		}
		if body["id"] != id {
			t.Errorf("%s names %v, want the contract %s", eventType, body["id"], id)
		}
		if eventType == "contract.ended" {
			last = body
		}
	}
	var log struct {
		Events []struct {
			Type string `json:"type"`
		} `json:"events"`
	}
	f.Harness.Do(t, http.MethodGet, "/v1/events?object_id="+id+"&limit=100", f.Token, nil).Decode(t, &log)
	var recorded []string
	for _, e := range log.Events {
		recorded = append(recorded, e.Type)
	}
	if strings.Join(recorded, ",") != strings.Join(want, ",") {
		t.Errorf("the event log:\n%s\nwant\n%s", strings.Join(recorded, ","), strings.Join(want, ","))
	}
	slices.Sort(got)
	slices.Sort(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("the receiver got:\n%s\nwant\n%s", strings.Join(got, ","), strings.Join(want, ","))
	}
	var shown map[string]any
	if err := json.Unmarshal(final.Body, &shown); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(last, shown) {
		t.Errorf("contract.ended's body differs from GET /v1/contracts/{id}:\n%v\n%v", last, shown)
	}
}

func TestContractRights(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	id := startedContract(t, f, "rights-1")
	other := f.Harness.Seller(t)
	otherToken := f.Harness.Token(t, other, "client")
	for _, r := range []struct{ method, path string }{
		{http.MethodGet, "/v1/contracts/" + id},
		{http.MethodGet, "/v1/contracts/" + id + "/termination-quote"},
		{http.MethodPost, "/v1/contracts/" + id + "/buy-out"},
	} {
		if resp := f.Harness.Do(t, r.method, r.path, otherToken, nil); resp.Status != http.StatusNotFound {
			t.Errorf("another seller's %s %s: %d %s", r.method, r.path, resp.Status, resp.Body)
		}
	}
	if resp := f.Harness.Do(t, http.MethodGet, "/v1/contracts", otherToken, nil); resp.Status != http.StatusOK || strings.Contains(string(resp.Body), id) {
		t.Errorf("another seller's list: %d %s", resp.Status, resp.Body)
	}
	resp := f.Simulate(t, "advance_contract_clock", map[string]any{"id": id, "months": 1})
	if resp.Status != http.StatusOK {
		t.Fatalf("advance: %d %s", resp.Status, resp.Body)
	}
	otherFixture := apitest.OfferFixture{Harness: f.Harness, Seller: other, Token: otherToken}
	if resp := otherFixture.Simulate(t, "advance_contract_clock", map[string]any{"id": id, "months": 1}); resp.Status != http.StatusUnprocessableEntity {
		t.Errorf("another seller's clock: %d %s", resp.Status, resp.Body)
	}

	orders := f.Harness.Token(t, f.Seller, "seller-order:read seller-order:edit")
	reader := f.Harness.Token(t, f.Seller, "seller-contract:read")
	for _, r := range []struct {
		method, path, token string
		body                any
	}{
		{http.MethodGet, "/v1/contracts", orders, nil},
		{http.MethodGet, "/v1/contracts/" + id, orders, nil},
		{http.MethodGet, "/v1/contracts/" + id + "/termination-quote", orders, nil},
		{http.MethodPost, "/v1/contracts/" + id + "/buy-out", reader, nil},
		{http.MethodPost, "/v1/contracts/" + id + "/extensions", reader, map[string]any{"mode": "term"}},
		{http.MethodPost, "/v1/contracts/" + id + "/returns", reader, map[string]any{"serial_numbers": []string{"SN"}, "tracking_url": "https://t.example/"}},
		{http.MethodPost, "/v1/contracts/" + id + "/termination", reader, map[string]any{"quote_id": apitest.NewID()}},
	} {
		if resp := f.Harness.Do(t, r.method, r.path, r.token, r.body); resp.Status != http.StatusForbidden {
			t.Errorf("%s %s without its scope: %d %s", r.method, r.path, resp.Status, resp.Body)
		}
	}
	if resp := f.Harness.Do(t, http.MethodGet, "/v1/contracts/"+id, reader, nil); resp.Status != http.StatusOK {
		t.Errorf("read with seller-contract:read: %d", resp.Status)
	}
}
