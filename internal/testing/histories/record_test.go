package histories_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/histories"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
	"github.com/tenurehq/tenure/workflows/catalogimport"
	"github.com/tenurehq/tenure/workflows/contract"
	"github.com/tenurehq/tenure/workflows/delivery"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
	"github.com/tenurehq/tenure/workflows/productimport"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// waitFor bounds every wait of a scenario.
const waitFor = time.Minute

// TestRecordHistories drives every workflow type through the paths its
// replay tests cover and writes their histories, and the stored offers and
// orders with their views, into the repository.
func TestRecordHistories(t *testing.T) {
	if os.Getenv("TENURE_RECORD_HISTORIES") == "" {
		t.Skip("set TENURE_RECORD_HISTORIES=1 to record the histories the replay tests use")
	}
	t.Run("sandbox", recordSandbox)
	t.Run("production", recordProduction)
	t.Run("contracts", recordContracts)
	t.Run("dunning", recordDunning)
}

// stack is Tenure's API and worker over a database and a namespace of
// their own, with one seller logged in.
type stack struct {
	t      *testing.T
	cfg    *config.Config
	store  *db.Store
	tc     client.Client
	seller auth.NewSeller
	api    *sellerclient.Client
	// views collects the offers and orders whose rows and views are saved.
	views []capture
}

func newStack(t *testing.T, env config.Environment, tune func(*config.Config)) *stack {
	t.Helper()
	cfg := testenv.Config(t)
	cfg.Environment = env
	// Retries a second apart, so a delivery that fails first is recorded
	// through to its success in seconds.
	cfg.Webhooks.RetrySchedule = []time.Duration{0, time.Second, time.Second, time.Second}
	tune(cfg)
	s := &stack{t: t, cfg: cfg, store: testenv.Database(t), tc: testenv.Temporal(t)}
	testenv.Worker(t, cfg, s.store, s.tc)
	baseURL := testenv.API(t, cfg, s.store, s.tc)
	seller, err := auth.CreateSeller(t.Context(), s.store, "Recorded Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	s.seller = seller
	if s.api, err = sellerclient.Login(t.Context(), baseURL, seller.Credentials.ClientID, seller.Credentials.ClientSecret); err != nil {
		t.Fatal(err)
	}
	return s
}

func recordSandbox(t *testing.T) {
	s := newStack(t, config.Sandbox, func(*config.Config) {})
	sellerID := s.seller.Seller.ID

	// Sandbox seeding: shipping methods, catalog, fixture offers and orders.
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	run, err := s.tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: sandbox.WorkflowID(sellerID), TaskQueue: sandbox.TaskQueue},
		sandbox.SeedSeller, sandbox.SeedInput{SellerID: sellerID})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	s.history(sandbox.WorkflowID(sellerID), "workflows/sandbox", "seed-seller")

	// A receiver that fails twice before it accepts an order.completed event.
	rcv := testenv.NewReceiver(t, func(_ *http.Request, attempt int) (int, time.Duration) {
		if attempt <= 2 {
			return http.StatusInternalServerError, 0
		}
		return http.StatusNoContent, 0
	})
	var endpoint struct {
		ID string `json:"id"`
	}
	s.call(http.MethodPost, "/v1/webhook-endpoints", map[string]any{"url": rcv.URL, "events": []string{"order.completed"}}, http.StatusCreated, &endpoint)

	// An offer with a subline, metadata and a sales agent, through review
	// to acceptance; its order through partial shipments to completion.
	accepted := s.createOffer("/v1/offers", offerPayload("rec-accepted", 7*24*time.Hour, withSubline, withAgent))
	s.simulate("mark_offer_for_review", accepted)
	s.simulate("mark_offer_accepted", accepted)
	s.offerHistory(accepted, "sandbox-accepted")
	completed := s.orderOf(accepted)
	s.orderAction(completed, "acknowledge")
	s.orderAction(completed, "accept")
	s.ship(completed, http.StatusOK, serial("SN-REC-1"))
	s.ship(completed, http.StatusUnprocessableEntity, serial("SN-REC-1")) // shipped already: refused
	s.ship(completed, http.StatusOK, serial("SN-REC-2"), item("SAP", "1234-5678", ""))
	s.orderHistory(completed, "partial-shipments-completed")
	rcv.WaitDelivered(t, 1, waitFor)
	var events struct {
		Events []struct {
			ID string `json:"id"`
		} `json:"events"`
	}
	s.call(http.MethodGet, "/v1/events?type=order.completed&object_id="+completed.String(), nil, http.StatusOK, &events)
	if len(events.Events) != 1 {
		t.Fatalf("order.completed events: %+v", events)
	}
	deliveryID := delivery.WorkflowID(uuid.MustParse(events.Events[0].ID), uuid.MustParse(endpoint.ID))
	s.wait(deliveryID)
	s.history(deliveryID, "workflows/delivery", "retried-until-delivered")

	// A partner offer whose order is confirmed, then cancelled.
	partner := s.createOffer("/v1/offers/partners", offerPayload("rec-partner", 7*24*time.Hour, withAgent))
	s.simulate("mark_offer_for_review", partner)
	s.simulate("mark_offer_accepted", partner)
	s.offerHistory(partner, "sandbox-partner-accepted")
	cancelled := s.orderOf(partner)
	s.orderAction(cancelled, "accept")
	s.simulate("mark_order_cancelled", cancelled)
	s.orderHistory(cancelled, "cancelled-after-confirmation")

	// An order the seller rejects.
	rejectedOffer := s.createOffer("/v1/offers", offerPayload("rec-rejected", 7*24*time.Hour))
	s.simulate("mark_offer_for_review", rejectedOffer)
	s.simulate("mark_offer_accepted", rejectedOffer)
	rejected := s.orderOf(rejectedOffer)
	s.orderAction(rejected, "reject")
	s.orderHistory(rejected, "rejected")

	// A declined offer, and one voided in its favour.
	declined := s.createOffer("/v1/offers", offerPayload("rec-declined", 7*24*time.Hour))
	s.simulate("mark_offer_for_review", declined)
	s.simulate("mark_offer_declined", declined)
	s.offerHistory(declined, "sandbox-declined")
	voided := s.createOffer("/v1/offers", offerPayload("rec-voided", 7*24*time.Hour))
	s.call(http.MethodPost, "/v1/offers/"+voided.String()+"/void", map[string]any{"superseded_by_id": declined.String()}, http.StatusOK, nil)
	s.offerHistory(voided, "voided-superseded")

	// An offer that expires: telesales, no shipping address.
	expiring := s.createOffer("/v1/offers", offerPayload("rec-expired", 4*time.Second, telesales))
	s.offerHistory(expiring, "expired")

	// An edited offer: the old one is voided, the superseding one (with
	// the same reference) is voided later from pending review.
	edited := s.createOffer("/v1/offers", offerPayload("rec-edited", 7*24*time.Hour))
	var superseding struct {
		ID string `json:"id"`
	}
	s.call(http.MethodPut, "/v1/offers/"+edited.String(), offerPayload("rec-edited", 14*24*time.Hour, withSubline), http.StatusAccepted, &superseding)
	s.offerHistory(edited, "edited")
	replacement := uuid.MustParse(superseding.ID)
	s.simulate("mark_offer_for_review", replacement)
	s.simulate("mark_offer_voided", replacement)
	s.offerHistory(replacement, "superseding-voided")

	// A product batch imported in the background.
	var batch struct {
		ID string `json:"id"`
	}
	s.call(http.MethodPost, "/v1/catalog/import", map[string]any{"products": products(12)}, http.StatusOK, &batch)
	importID := uuid.MustParse(batch.ID)
	s.wait(productimport.WorkflowID(importID))
	s.history(productimport.WorkflowID(importID), "workflows/productimport", "twelve-products")

	// A CSV import to completion, and one cancelled before its upload.
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	csvID, err := s.api.ImportCSVFile(t.Context(), filepath.Join(root, "examples", "catalog.csv"))
	if err != nil {
		t.Fatal(err)
	}
	s.wait(catalogimport.WorkflowID(uuid.MustParse(csvID)))
	s.history(catalogimport.WorkflowID(uuid.MustParse(csvID)), "workflows/catalogimport", "completed")
	var job struct {
		ID string `json:"id"`
	}
	s.call(http.MethodPost, "/v1/catalog/imports", map[string]any{"filename": "later.csv"}, http.StatusCreated, &job)
	s.call(http.MethodDelete, "/v1/catalog/imports/"+job.ID, nil, http.StatusOK, nil)
	s.wait(catalogimport.WorkflowID(uuid.MustParse(job.ID)))
	s.history(catalogimport.WorkflowID(uuid.MustParse(job.ID)), "workflows/catalogimport", "cancelled-before-upload")

	s.saveViews()
}

func recordProduction(t *testing.T) {
	s := newStack(t, config.Production, func(cfg *config.Config) {
		cfg.Risk.ManualReviewDeadline = 3 * time.Second
	})
	// Production sellers have no fixtures: one supported product.
	var imported struct {
		Status string `json:"status"`
	}
	s.call(http.MethodPost, "/v1/catalog/import", map[string]any{"products": []map[string]any{{
		"title": "Dell UltraSharp U2724D", "is_active": true, "seller_product_type": "hardware",
		"seller_product_references": []map[string]any{{"source": "sku", "reference": "123abc"}},
		"price":                     map[string]any{"currency": "EUR", "net": 54538, "gross": 64900, "tax_rate": 1900},
	}}}, http.StatusOK, &imported)
	if imported.Status != "completed" {
		t.Fatalf("the production product was not imported: %+v", imported)
	}
	// The recording submits offers for review with the bare update, as the
	// sandbox's simulation does; a customer's acceptance through the
	// Customer-Facing API (which adds what they agreed to) is not recorded.
	service := &services.Offers{Store: s.store, Temporal: s.tc}
	sellerID := s.seller.Seller.ID
	submit := func(id uuid.UUID) {
		if err := service.Change(t.Context(), sellerID, id, offer.SubmitForReview); err != nil {
			t.Fatal(err)
		}
	}

	// The rules accept an offer within the automatic limits.
	auto := s.createOffer("/v1/offers", offerPayload("rec-rules-accepted", 7*24*time.Hour, telesales))
	submit(auto)
	s.offerHistory(auto, "rules-accepted")

	// Missing company data leaves the offer to an operator, who accepts.
	manual := s.createOffer("/v1/offers", offerPayload("rec-operator-accepted", 7*24*time.Hour, telesales, withoutCompany))
	submit(manual)
	s.status("/v1/offers/"+manual.String(), "pending_review")
	if err := service.Change(t.Context(), sellerID, manual, offer.Accept); err != nil {
		t.Fatal(err)
	}
	s.offerHistory(manual, "operator-accepted")

	// An undecided manual review is declined at its deadline.
	lapsed := s.createOffer("/v1/offers", offerPayload("rec-deadline-declined", 7*24*time.Hour, telesales, withoutCompany))
	submit(lapsed)
	s.offerHistory(lapsed, "manual-review-deadline-declined")

	s.saveViews()
}

// recordContracts drives a sandbox order's contract from the order's
// confirmation to its return: shipped, its clock advanced to the notice,
// extended by a term, to the end of the term with no choice, month by
// month until it continues as new, then given back.
func recordContracts(t *testing.T) {
	s := newStack(t, config.Sandbox, func(*config.Config) {})
	var imported struct {
		Status string `json:"status"`
	}
	s.call(http.MethodPost, "/v1/catalog/import", map[string]any{"products": []map[string]any{{
		"title": "Dell UltraSharp U2724D", "is_active": true, "seller_product_type": "hardware",
		"seller_product_references": []map[string]any{{"source": "sku", "reference": "123abc"}},
		"price":                     map[string]any{"currency": "EUR", "net": 54538, "gross": 64900, "tax_rate": 1900},
	}}}, http.StatusOK, &imported)
	if imported.Status != "completed" {
		t.Fatalf("the product was not imported: %+v", imported)
	}
	offerID := s.createOffer("/v1/offers", offerPayload("rec-contract", 7*24*time.Hour, telesales))
	s.simulate("mark_offer_for_review", offerID)
	s.simulate("mark_offer_accepted", offerID)
	orderID := s.orderOf(offerID)
	s.orderAction(orderID, "accept")
	s.ship(orderID, http.StatusOK, serial("SN-CON-1"), serial("SN-CON-2"))
	s.orderHistory(orderID, "contracts-started-by-the-shipment")

	rows, err := s.store.ListOrderContracts(s.t.Context(), orderID)
	if err != nil || len(rows) != 1 {
		t.Fatalf("contracts %+v (%v)", rows, err)
	}
	id := rows[0].ID
	ctx, cancel := context.WithTimeout(t.Context(), waitFor)
	defer cancel()
	stored := func() contracts.Stored {
		c, err := contracts.Load(ctx, s.store.Queries, s.seller.Seller.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for deadline := time.Now().Add(waitFor); stored().Status != contracts.Running; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the shipment did not start the contract")
		}
	}
	firstRun := s.tc.GetWorkflow(ctx, contract.WorkflowID(id), "").GetRunID()
	advance := func(to civil.Date) {
		t.Helper()
		if _, err := contract.AdvanceContractClock(ctx, s.tc, id, contract.AdvanceClockRequest{To: &to}); err != nil {
			t.Fatal(err)
		}
	}
	advance(*stored().NoticeDate)
	if _, err := contract.QuoteContractTermination(ctx, s.tc, id); err != nil {
		t.Fatal(err)
	}
	if _, err := contract.ExtendContract(ctx, s.tc, id, contracts.ExtendByTerm); err != nil {
		t.Fatal(err)
	}
	advance(stored().EndDate.AddDays(1))
	for range 3 {
		advance(stored().Schedule.End().AddDays(1))
	}
	returned := []activities.ReturnedAsset{
		{SerialNumber: "SN-CON-1", TrackingURL: "https://tracking.example/back/1"},
		{SerialNumber: "SN-CON-2", TrackingURL: "https://tracking.example/back/2"},
	}
	if _, err := contract.RecordAssetsReturn(ctx, s.tc, id, returned); err != nil {
		t.Fatal(err)
	}
	s.wait(contract.WorkflowID(id))
	if c := stored(); c.Status != contracts.Returned {
		t.Fatalf("the contract ended %s", c.Status)
	}
	if last := s.tc.GetWorkflow(ctx, contract.WorkflowID(id), "").GetRunID(); last == firstRun {
		t.Fatal("the contract never continued as new")
	}
	s.historyOfRun(contract.WorkflowID(id), firstRun, "workflows/contract", "opened-shipped-extended-continued")
	s.history(contract.WorkflowID(id), "workflows/contract", "monthly-returned")
}

// recordDunning records a contract whose first installment is returned,
// reminded through its stages on its clock to defaulted, and written off.
func recordDunning(t *testing.T) {
	s := newStack(t, config.Sandbox, func(*config.Config) {})
	var imported struct {
		Status string `json:"status"`
	}
	s.call(http.MethodPost, "/v1/catalog/import", map[string]any{"products": []map[string]any{{
		"title": "Dell UltraSharp U2724D", "is_active": true, "seller_product_type": "hardware",
		"seller_product_references": []map[string]any{{"source": "sku", "reference": "123abc"}},
		"price":                     map[string]any{"currency": "EUR", "net": 54538, "gross": 64900, "tax_rate": 1900},
	}}}, http.StatusOK, &imported)
	if imported.Status != "completed" {
		t.Fatalf("the product was not imported: %+v", imported)
	}
	offerID := s.createOffer("/v1/offers", offerPayload("rec-dunning", 7*24*time.Hour, telesales))
	s.simulate("mark_offer_for_review", offerID)
	s.simulate("mark_offer_accepted", offerID)
	orderID := s.orderOf(offerID)
	s.orderAction(orderID, "accept")
	rows, err := s.store.ListOrderContracts(s.t.Context(), orderID)
	if err != nil || len(rows) != 1 {
		t.Fatalf("contracts %+v (%v)", rows, err)
	}
	id := rows[0].ID
	ctx, cancel := context.WithTimeout(t.Context(), waitFor)
	defer cancel()
	started, err := contract.MarkStarted(ctx, s.tc, id)
	if err != nil {
		t.Fatal(err)
	}
	ring := collectiontest.Ring(t)
	collectiontest.Mandate(t, s.store, ring, s.seller.Seller.ID, offerID, started.Today.AddDays(-1), sepa.Core)
	runner := collectiontest.Runner(t, s.store, ring)
	if _, err := runner.Submit(ctx, started.Today); err != nil {
		t.Fatal(err)
	}
	item, err := s.store.OldestOpenCollectionItem(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	notice := sepa.Notice{Outcome: sepa.Returned, EndToEndID: sepa.EndToEndID(item.EndToEndID), Amount: item.Amount, Reason: "AM04"}
	if _, err := contract.SettleContractCollection(ctx, s.tc, id, contract.CollectionRequest{Notice: activities.NoticeOf(notice)}); err != nil {
		t.Fatal(err)
	}
	to := started.Today.AddDays(28)
	answer, err := contract.AdvanceContractClock(ctx, s.tc, id, contract.AdvanceClockRequest{To: &to})
	if err != nil || answer.Status != contracts.Defaulted {
		t.Fatalf("after the last reminder stage: %+v, %v", answer, err)
	}
	if _, err := contract.WriteOffContract(ctx, s.tc, id); err != nil {
		t.Fatal(err)
	}
	s.wait(contract.WorkflowID(id))
	s.history(contract.WorkflowID(id), "workflows/contract", "dunned-defaulted-written-off")
}

// call sends a request and fails the test unless it answers want.
func (s *stack) call(method, path string, body any, want int, out any) {
	s.t.Helper()
	status, raw, err := s.api.Do(s.t.Context(), method, path, body, out)
	if err != nil || status != want {
		s.t.Fatalf("%s %s: %d %s %v (want %d)", method, path, status, raw, err, want)
	}
}

func (s *stack) createOffer(path string, payload map[string]any) uuid.UUID {
	s.t.Helper()
	var o struct {
		ID string `json:"id"`
	}
	s.call(http.MethodPost, path, payload, http.StatusCreated, &o)
	return uuid.MustParse(o.ID)
}

func (s *stack) simulate(scenario string, id uuid.UUID) {
	s.t.Helper()
	s.call(http.MethodPost, "/v1/scenario_simulations/"+scenario, map[string]any{"scenario_input": map[string]any{"id": id.String()}}, http.StatusOK, nil)
}

func (s *stack) orderOf(offerID uuid.UUID) uuid.UUID {
	s.t.Helper()
	row, err := s.store.GetOrderByOffer(s.t.Context(), dbgen.GetOrderByOfferParams{SellerID: s.seller.Seller.ID, OfferID: offerID})
	if err != nil {
		s.t.Fatal(err)
	}
	return row.ID
}

func (s *stack) orderAction(id uuid.UUID, action string) {
	s.t.Helper()
	s.call(http.MethodPost, "/v1/orders/"+id.String()+"/"+action, nil, http.StatusOK, nil)
}

// shipped is one item of a shipment.
type shipped map[string]any

func item(source, reference, serialNumber string) shipped {
	return shipped{"seller_product_reference": map[string]any{"source": source, "reference": reference}, "serial_number": serialNumber}
}

func serial(serialNumber string) shipped { return item("sku", "123abc", serialNumber) }

func (s *stack) ship(orderID uuid.UUID, want int, items ...shipped) {
	s.t.Helper()
	s.call(http.MethodPost, "/v1/shipment", map[string]any{
		"order_id": orderID.String(), "tracking_url": "https://tracking.example/" + orderID.String(), "serial_numbers": items,
	}, want, nil)
}

// status waits until the resource at path has a status.
func (s *stack) status(path, want string) {
	s.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		var r struct {
			Status string `json:"status"`
		}
		s.call(http.MethodGet, path, nil, http.StatusOK, &r)
		if r.Status == want {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s stayed %s, not %s", path, r.Status, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// wait waits until a workflow has ended.
func (s *stack) wait(workflowID string) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.t.Context(), waitFor)
	defer cancel()
	if err := s.tc.GetWorkflow(ctx, workflowID, "").Get(ctx, nil); err != nil {
		s.t.Fatalf("workflow %s: %v", workflowID, err)
	}
}

func (s *stack) offerHistory(id uuid.UUID, name string) {
	s.t.Helper()
	s.wait(offer.WorkflowID(id))
	s.history(offer.WorkflowID(id), "workflows/offer", name)
	s.views = append(s.views, capture{kind: "offer", id: id, name: name})
}

func (s *stack) orderHistory(id uuid.UUID, name string) {
	s.t.Helper()
	s.wait(order.WorkflowID(id))
	s.history(order.WorkflowID(id), "workflows/order", name)
	s.views = append(s.views, capture{kind: "order", id: id, name: name})
}

// history writes the history of a workflow's latest run as the JSON the
// Temporal CLI and the SDK's replayer read.
func (s *stack) history(workflowID, dir, name string) {
	s.t.Helper()
	s.historyOfRun(workflowID, "", dir, name)
}

// historyOfRun writes the history of one run of a workflow ("" for its
// latest).
func (s *stack) historyOfRun(workflowID, runID, dir, name string) {
	s.t.Helper()
	iter := s.tc.GetWorkflowHistory(s.t.Context(), workflowID, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var h historypb.History
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			s.t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	raw, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(&h)
	if err != nil {
		s.t.Fatal(err)
	}
	s.write(filepath.Join(dir, "testdata", "histories", name+".json"), raw)
}

func (s *stack) write(path string, raw []byte) {
	s.t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		s.t.Fatal(err)
	}
	path = filepath.Join(root, path)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, append(raw, '\n'), 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.t.Logf("wrote %s", path)
}

// capture names an offer or order whose stored rows and views are saved.
type capture struct {
	kind string
	id   uuid.UUID
	name string
}

// saveViews writes each captured offer and order: its rows, what GET
// answered for it and its events' payloads.
func (s *stack) saveViews() {
	s.t.Helper()
	ctx := s.t.Context()
	sellerID := s.seller.Seller.ID
	for _, c := range s.views {
		var out any
		switch c.kind {
		case "offer":
			row, err := s.store.GetOffer(ctx, dbgen.GetOfferParams{SellerID: sellerID, ID: c.id})
			if err != nil {
				s.t.Fatal(err)
			}
			o := histories.Offer{Row: row, Document: row.Document, View: s.raw("/v1/offers/" + c.id.String()), Events: s.events(c.id)}
			o.Row.Document = nil
			out = o
		case "order":
			row, err := s.store.GetOrder(ctx, dbgen.GetOrderParams{SellerID: sellerID, ID: c.id})
			if err != nil {
				s.t.Fatal(err)
			}
			assets, err := s.store.ListOrderAssets(ctx, c.id)
			if err != nil {
				s.t.Fatal(err)
			}
			urls, err := s.store.ListTrackingURLs(ctx, c.id)
			if err != nil {
				s.t.Fatal(err)
			}
			o := histories.Order{
				Row: row, Document: row.Document, Metadata: row.Metadata, Assets: assets, TrackingURLs: urls,
				View: s.raw("/v1/orders/" + c.id.String()), Summary: s.summary(c.id), Events: s.events(c.id),
			}
			o.Row.Document, o.Row.Metadata = nil, nil
			out = o
		}
		raw, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			s.t.Fatal(err)
		}
		s.write(filepath.Join("api", "seller", "testdata", "views", fmt.Sprintf("%s-%s.json", c.kind, c.name)), raw)
	}
}

// raw is the body GET path answers, byte for byte.
func (s *stack) raw(path string) json.RawMessage {
	s.t.Helper()
	status, body, err := s.api.Do(s.t.Context(), http.MethodGet, path, nil, nil)
	if err != nil || status != http.StatusOK {
		s.t.Fatalf("GET %s: %d %s %v", path, status, body, err)
	}
	return body
}

// summary is the order summary the order operations answer with (PATCH
// of the metadata the order has already changes nothing).
func (s *stack) summary(id uuid.UUID) json.RawMessage {
	s.t.Helper()
	var order struct {
		Metadata map[string]string `json:"metadata"`
	}
	s.call(http.MethodGet, "/v1/orders/"+id.String(), nil, http.StatusOK, &order)
	status, body, err := s.api.Do(s.t.Context(), http.MethodPatch, "/v1/orders/"+id.String(), map[string]any{"metadata": order.Metadata}, nil)
	if err != nil || status != http.StatusOK {
		s.t.Fatalf("PATCH order %s: %d %s %v", id, status, body, err)
	}
	return body
}

func (s *stack) events(objectID uuid.UUID) []histories.Event {
	s.t.Helper()
	var page struct {
		Events []histories.Event `json:"events"`
	}
	s.call(http.MethodGet, "/v1/events?object_id="+objectID.String(), nil, http.StatusOK, &page)
	return page.Events
}

// payloadOption varies an offer payload.
type payloadOption func(map[string]any)

func withSubline(p map[string]any) {
	line := p["lines"].([]map[string]any)[0]
	line["sub_lines"] = []map[string]any{{
		"title": "Logitech MX Master 3S", "quantity": 1,
		"seller_product_reference": map[string]any{"source": "SAP", "reference": "1234-5678"},
		"price":                    map[string]any{"currency": "EUR", "net": 8395, "gross": 9990},
	}}
	line["base_rental_price"] = map[string]any{"currency": "EUR", "net": 50000}
	p["metadata"] = map[string]string{"crm_deal": "D-1001"}
	p["exit_redirect"] = "https://shop.example/cart"
	p["success_redirect"] = "https://shop.example/thanks"
}

func withAgent(p map[string]any) {
	p["sales_agent"] = map[string]any{"name": "Sam Seller", "email": "Sam@Shop.example", "phone": "+49 30 1234567"}
}

func telesales(p map[string]any) {
	p["sales_channel"] = "telesales"
	delete(p, "shipping_address")
	delete(p, "shipping")
}

func withoutCompany(p map[string]any) {
	delete(p["customer"].(map[string]any), "company")
}

// offerPayload is an offer of two sandbox monitors (sku/123abc).
func offerPayload(reference string, expiresIn time.Duration, options ...payloadOption) map[string]any {
	p := map[string]any{
		"seller_offer_reference": reference,
		"sales_channel":          "ecommerce",
		"expires_at":             time.Now().Add(expiresIn).UTC().Format(time.RFC3339),
		"customer": map[string]any{
			"email": "buyer@example.com", "full_name": "Berta Buyer", "phone_number": "+49 30 7654321",
			"company": map[string]any{"name": "Buyer GmbH", "vat_number": "DE999999999",
				"billing_address": map[string]any{"city": "Berlin", "country_code": "DE", "line1": "Main street 1", "postal_code": "10115"}},
		},
		"shipping_address": map[string]any{"city": "Berlin", "country_code": "DE", "line1": "Main street 1", "postal_code": "10115", "recipient_name": "Berta Buyer"},
		"shipping": map[string]any{"seller_shipping_reference": "sandbox-shipping-service",
			"price": map[string]any{"currency": "EUR", "net": 990, "gross": 1178}},
		"lines": []map[string]any{{
			"title": "Dell UltraSharp U2724D", "subtitle": "27 inch", "quantity": 2,
			"seller_product_reference": map[string]any{"source": "sku", "reference": "123abc"},
			"price":                    map[string]any{"currency": "EUR", "net": 54538},
		}},
	}
	for _, o := range options {
		o(p)
	}
	return p
}

// products is a batch of n monitors for a background import.
func products(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = map[string]any{
			"title": fmt.Sprintf("Monitor %d", i), "is_active": true,
			"seller_product_references": []map[string]any{{"source": "sku", "reference": fmt.Sprintf("MON-%d", i)}},
			"price":                     map[string]any{"currency": "EUR", "net": 20000, "gross": 23800},
		}
	}
	return out
}
