package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/tenurehq/tenure/api"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/customerclient"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
	"github.com/tenurehq/tenure/services"
)

// The official schemas every file of the lifecycle is checked against.
const (
	pain008Schema = "../../domain/sepa/testdata/pain.008.001.08.xsd"
	ciiSchema     = "../../domain/invoices/testdata/cii/CrossIndustryInvoice_100pD16B.xsd"
)

// debtorIBAN is the account the customer client gives at checkout
// (customerclient.PaymentMethod); these are the ways it could be written.
// Only the collection file may carry it.
var debtorIBAN = []string{"DE89370400440532013000", "DE89 3704 0044 0532 0130 00", "0532013000"}

// moneyStack is a checkout stack whose worker issues invoices under the
// mandates customers sign at checkout, as `tenure worker` does, keeping
// everything Tenure logs, every span it records and every answer its
// clients read, to search them for the debtor's IBAN.
type moneyStack struct {
	checkoutStack
	cfg      *config.Config
	sellerID string
	logs     *testenv.Output
	answers  *testenv.Output
	spans    *tracetest.SpanRecorder
}

func newMoneyStack(t *testing.T, env config.Environment) moneyStack {
	t.Helper()
	spans := tracetest.NewSpanRecorder()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	t.Cleanup(func() { _ = provider.Shutdown(context.Background()) })
	telemetry.UseTracerProvider(provider)

	cfg := testenv.Config(t)
	cfg.Environment = env
	cfg.Risk.AutoAcceptAmount = 1_000_000
	cfg.IDV.AmountThreshold = 100_000_000
	cfg.Webhooks.AllowPrivateAddresses = true
	// The creditor's own account differs from the debtor's, so that the
	// debtor's can be searched for.
	creditor := cfg.Creditors[cfg.Sellers.DefaultContractualEntity]
	creditor.IBAN, creditor.BIC = "DE02120300000000202051", "BYLADEM1001"
	cfg.Creditors[cfg.Sellers.DefaultContractualEntity] = creditor

	logs, answers := &testenv.Output{}, &testenv.Output{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 6)
	namespace := testenv.Namespace(t)
	tc := testenv.ClientFor(t, namespace)
	testenv.CheckoutWorker(t, cfg, store, tc, logger)
	svc, err := services.New(cfg, store, tc, logger)
	if err != nil {
		t.Fatal(err)
	}
	apiURL := testenv.ServeAPI(t, api.Deps{Config: cfg, Services: svc, Tokens: auth.NewTokens(cfg.Auth.SigningKey, cfg.Auth.TokenTTL), Logger: logger})
	client, rcv := serverSeller(t, store, cfg, apiURL, "Money Shop")
	client.HTTP.Transport = recording{next: client.HTTP.Transport, to: answers}
	s := moneyStack{cfg: cfg, logs: logs, answers: answers, spans: spans, checkoutStack: checkoutStack{
		seller: client, apiURL: apiURL, receiver: rcv, store: store, env: append(os.Environ(),
			"TENURE_DATABASE_URL="+databaseURL,
			"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
			"TENURE_TEMPORAL_NAMESPACE="+namespace,
			"TENURE_ENVIRONMENT="+string(env),
			"TENURE_DATA_DIR="+cfg.DataDir,
			"TENURE_MANDATES_IBAN_KEYS="+testenv.TestIBANKey,
		)}}
	if err := store.Pool.QueryRow(t.Context(), `SELECT id::text FROM sellers WHERE name = 'Money Shop'`).Scan(&s.sellerID); err != nil {
		t.Fatal(err)
	}
	// The operator makes the seller's customers give a mandate.
	if out := string(tenureCLI(t, s.env, "sellers", "set-payment-method-required", s.sellerID, "on")); !strings.Contains(out, "mandate before they accept") {
		t.Errorf("set-payment-method-required printed %q", out)
	}
	return s
}

// recording keeps the body of every answer its client reads.
type recording struct {
	next http.RoundTripper
	to   *testenv.Output
}

func (r recording) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	_, _ = r.to.Write(body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// runningContract checks out an offer of one server with the mandate, has
// it accepted (by the rules in production, the simulation in the sandbox),
// confirms and ships the order, and answers the contract whose term the
// shipment started.
func (s moneyStack) runningContract(t *testing.T, reference string) sellerclient.Contract {
	t.Helper()
	ctx := t.Context()
	id, err := s.seller.CreateOffer(ctx, sellerclient.OfferPayload(reference, server, 1))
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		CheckoutURL string `json:"checkout_redirect_url"`
	}
	if status, body, err := s.seller.Do(ctx, http.MethodGet, sellerclient.OfferPath(id), nil, &o); status != http.StatusOK || err != nil {
		t.Fatalf("read offer: %d %s %v", status, body, err)
	}
	customer, err := customerclient.Open(&http.Client{Timeout: 40 * time.Second, Transport: recording{next: http.DefaultTransport, to: s.answers}}, s.apiURL, o.CheckoutURL)
	if err != nil {
		t.Fatal(err)
	}
	if offer, err := customer.Checkout(ctx, choice); err != nil || !offer.PaymentMethodRequired {
		t.Fatalf("checkout with a mandate: %+v %v", offer, err)
	}
	if s.cfg.Environment == config.Sandbox {
		time.Sleep(300 * time.Millisecond)
		if err := s.seller.Await(ctx, sellerclient.OfferPath(id), "pending_review"); err != nil {
			t.Fatal(err)
		}
		if err := s.seller.Simulate(ctx, "mark_offer_accepted", id); err != nil {
			t.Fatal(err)
		}
	}
	orderID, err := s.seller.FindOrder(ctx, reference)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.seller.OrderAction(ctx, orderID, "accept"); err != nil {
		t.Fatal(err)
	}
	if err := s.seller.Ship(ctx, orderID, server, []string{"SN-" + reference}); err != nil {
		t.Fatal(err)
	}
	c, err := s.seller.FindContract(ctx, orderID)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// event is a webhook the receiver got: its type and body.
type event struct {
	Type string
	Body map[string]any
}

// awaitEvents waits until the receiver got n events of a type and answers
// them.
func (s moneyStack) awaitEvents(t *testing.T, eventType string, n int) []event {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var got []event
		seen := map[string]bool{}
		for _, r := range s.receiver.Requests() {
			if r.Header.Get("webhook-event-type") != eventType || seen[r.Header.Get("webhook-id")] {
				continue
			}
			seen[r.Header.Get("webhook-id")] = true
			e := event{Type: eventType}
			if err := json.Unmarshal(r.Body, &e.Body); err != nil {
				t.Fatalf("%s body: %v", eventType, err)
			}
			got = append(got, e)
		}
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the receiver got %d %s events within a minute, want %d", len(got), eventType, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// invoice is what the lifecycle reads of an invoice.
type invoice struct {
	ID                string `json:"id"`
	Number            string `json:"number"`
	CustomerURL       string `json:"customer_url"`
	MandateReference  string `json:"mandate_reference"`
	Gross             int64  `json:"gross"`
	CollectionDate    string `json:"collection_date"`
	ContractualEntity string `json:"contractual_entity"`
}

// checkInvoice reads the contract's one invoice through the Seller API,
// checks its PDF and its CII e-invoice against the official XSD, and opens
// the PDF with the customer's link from invoice.issued, without
// credentials.
func (s moneyStack) checkInvoice(t *testing.T, contractID string) invoice {
	t.Helper()
	ctx := t.Context()
	var page struct {
		Invoices []json.RawMessage `json:"invoices"`
	}
	// The invoice is issued in a transaction of its own right after the
	// installment falls due (decision 0272): wait for it to be there.
	deadline := time.Now().Add(time.Minute)
	for {
		status, body, err := s.seller.Do(ctx, http.MethodGet, "/v1/invoices?contract_id="+contractID, nil, &page)
		if status != http.StatusOK || err != nil || len(page.Invoices) > 1 || (len(page.Invoices) == 0 && time.Now().After(deadline)) {
			t.Fatalf("the contract's invoices: %d %s %v", status, body, err)
		}
		if len(page.Invoices) == 1 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	var inv invoice
	if err := json.Unmarshal(page.Invoices[0], &inv); err != nil {
		t.Fatal(err)
	}
	if inv.Number == "" || inv.MandateReference == "" || inv.Gross <= 0 || inv.CollectionDate == "" {
		t.Errorf("invoice %+v", inv)
	}
	if status, pdf, err := s.seller.Do(ctx, http.MethodGet, "/v1/invoices/"+inv.ID+"/pdf", nil, nil); status != http.StatusOK || err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("the invoice's PDF: %d %.20q %v", status, pdf, err)
	}
	status, xml, err := s.seller.Do(ctx, http.MethodGet, "/v1/invoices/"+inv.ID+"/xml", nil, nil)
	if status != http.StatusOK || err != nil {
		t.Fatalf("the invoice's CII: %d %v", status, err)
	}
	xmllint.Validate(t, ciiSchema, xml)
	if !bytes.Contains(xml, []byte(inv.Number)) || !bytes.Contains(xml, []byte(inv.MandateReference)) {
		t.Errorf("the CII names neither the number %s nor the mandate %s", inv.Number, inv.MandateReference)
	}

	issued := s.awaitEvents(t, "invoice.issued", 1)
	link, _ := issued[0].Body["customer_url"].(string)
	if link == "" {
		t.Fatalf("invoice.issued carries no customer link: %v", issued[0].Body)
	}
	// The link names the configured public address; this server listens
	// on a port of its own.
	opened, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(s.apiURL + opened.RequestURI())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	pdf, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("the customer's link: %d %s %.20q", resp.StatusCode, resp.Header.Get("Content-Type"), pdf)
	}
	return inv
}

// today is the collection run's day: the contracts' time zone's today.
func (s moneyStack) today(t *testing.T) civil.Date {
	t.Helper()
	zone, err := time.LoadLocation(s.cfg.Contracts.Timezone)
	if err != nil {
		t.Fatal(err)
	}
	return civil.DateOf(time.Now().In(zone))
}

// collect runs the collection run of a day with `tenure collections run`,
// wants it to submit n collections, and answers its pain.008 file (one
// creditor, one scheme: one file), checked against the official XSD and
// printed with `tenure collections files show`.
func (s moneyStack) collect(t *testing.T, day civil.Date, n int) []byte {
	t.Helper()
	out := string(tenureCLI(t, s.env, "collections", "run", "--date", day.String()))
	if want := fmt.Sprintf("%d collections submitted now, 1 files with %d collections", n, n); !strings.Contains(out, want) {
		t.Fatalf("collections run %s printed %q, want %q", day, out, want)
	}
	var fileID string
	err := s.store.Pool.QueryRow(t.Context(), `SELECT f.id::text FROM collection_files f JOIN collection_runs r ON r.id = f.run_id WHERE r.run_date = $1`,
		day.Midnight(time.UTC)).Scan(&fileID)
	if err != nil {
		t.Fatal(err)
	}
	if list := string(tenureCLI(t, s.env, "collections", "files")); !strings.Contains(list, fileID) {
		t.Errorf("collections files does not list %s:\n%s", fileID, list)
	}
	file := tenureCLI(t, s.env, "collections", "files", "show", fileID)
	xmllint.Validate(t, pain008Schema, file)
	return file
}

// endToEndIDs are the end-to-end ids of a contract's collections, oldest
// first, with their status.
func (s moneyStack) endToEndIDs(t *testing.T, contractID string) [][2]string {
	t.Helper()
	rows, err := s.store.Pool.Query(t.Context(), `SELECT end_to_end_id, status FROM collection_items WHERE contract_id = $1 ORDER BY attempt`, contractID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var id, status string
		if err := rows.Scan(&id, &status); err != nil {
			t.Fatal(err)
		}
		out = append(out, [2]string{id, status})
	}
	return out
}

// firstInstallment reads a contract's first installment's status.
func (s moneyStack) firstInstallment(t *testing.T, contractID string) string {
	t.Helper()
	var c sellerclient.Contract
	if status, body, err := s.seller.Do(t.Context(), http.MethodGet, sellerclient.ContractPath(contractID), nil, &c); status != http.StatusOK || err != nil || c.Schedule == nil {
		t.Fatalf("contract: %d %s %v", status, body, err)
	}
	return c.Schedule.Installments[0].Status
}

// checkFile wants a pain.008 to debit the debtor's account under the
// invoice's mandate with the collection's end-to-end id and sequence type.
func checkFile(t *testing.T, file []byte, inv invoice, endToEndID, sequence string) {
	t.Helper()
	for _, want := range []string{debtorIBAN[0], inv.MandateReference, endToEndID, "<SeqTp>" + sequence + "</SeqTp>", fmt.Sprintf("<CtrlSum>%d.%02d</CtrlSum>", inv.Gross/100, inv.Gross%100)} {
		if !bytes.Contains(file, []byte(want)) {
			t.Errorf("the pain.008 lacks %q", want)
		}
	}
}

// checkNoIBAN searches everything but the collection files for the
// debtor's IBAN: the answers the seller's and the customer's clients
// read, the webhooks, every log line and every span with its attributes
// and events.
func (s moneyStack) checkNoIBAN(t *testing.T) {
	t.Helper()
	var spans strings.Builder
	for _, span := range s.spans.Ended() {
		fmt.Fprintf(&spans, "%s %v %v %v\n", span.Name(), span.Attributes(), span.Events(), span.Status())
	}
	var webhooks strings.Builder
	for _, r := range s.receiver.Requests() {
		fmt.Fprintf(&webhooks, "%v %s\n", r.Header, r.Body)
	}
	places := map[string]string{"answers": s.answers.String(), "logs": s.logs.String(), "spans": spans.String(), "webhooks": webhooks.String()}
	for place, text := range places {
		if text == "" {
			t.Errorf("nothing was recorded in the %s to search", place)
		}
		for _, form := range debtorIBAN {
			if strings.Contains(text, form) {
				t.Errorf("the %s carry the debtor's IBAN (%s)", place, form)
			}
		}
	}
	if masked := regexp.MustCompile(`DE89 \*{4} \*{4} \*{4} \*{4} 00`); !masked.MatchString(s.answers.String()) {
		t.Error("no answer showed the customer's IBAN masked")
	}
}

// checkLedger wants the ledger to balance and every contract's receivable
// to be what it owes.
func (s moneyStack) checkLedger(t *testing.T) {
	t.Helper()
	if err := ledger.Check(t.Context(), s.store.Queries); err != nil {
		t.Error(err)
	}
}

// Production: a customer checks out with a mandate, the rules accept, the
// order ships and starts the contract, whose first installment is
// invoiced (PDF and CII, the customer's link in invoice.issued), collected
// in the day's pain.008 as the mandate's first (FRST) and paid, as the
// bank's camt.054 imported with `tenure collections returns import` says;
// importing it again changes nothing. The ledger balances and no answer,
// log line, span or webhook carries the debtor's IBAN.
func TestCollectionLifecycleInProduction(t *testing.T) {
	s := newMoneyStack(t, config.Production)
	c := s.runningContract(t, "money-prod")
	inv := s.checkInvoice(t, c.ID)
	s.checkLedger(t)

	file := s.collect(t, s.today(t), 1)
	items := s.endToEndIDs(t, c.ID)
	if len(items) != 1 || items[0][1] != "submitted" {
		t.Fatalf("collections of the contract: %v", items)
	}
	checkFile(t, file, inv, items[0][0], "FRST")
	s.checkLedger(t)

	notification := filepath.Join(t.TempDir(), "camt054.xml")
	camt, _ := io.ReadAll(collectiontest.Notification(collectiontest.Notice{EndToEndID: items[0][0], Cents: inv.Gross}))
	if err := os.WriteFile(notification, camt, 0o600); err != nil {
		t.Fatal(err)
	}
	first := string(tenureCLI(t, s.env, "collections", "returns", "import", notification))
	deadline := time.Now().Add(30 * time.Second)
	for s.firstInstallment(t, c.ID) != "paid" {
		if time.Now().After(deadline) {
			t.Fatalf("the booked collection did not make the installment paid (import printed %q)", first)
		}
		time.Sleep(100 * time.Millisecond)
	}
	again := string(tenureCLI(t, s.env, "collections", "returns", "import", notification))
	if items := s.endToEndIDs(t, c.ID); len(items) != 1 || items[0][1] != "paid" || first == again {
		t.Errorf("after importing twice: %v; first import %q, second %q", items, first, again)
	}
	s.checkLedger(t)
	s.checkNoIBAN(t)
}

// Sandbox: the same checkout with a mandate; the first installment is
// invoiced and collected, the bank returns it for insufficient funds
// (mark_installment_failed, AM04): installment.failed and
// contract.in_arrears reach the seller; the contract's clock moves two
// weeks and the two reminder stages follow, the second adding the flat
// fee (invoiced of its own); the next day's run presents the installment
// again, as the mandate's first once more (its first collection came
// back), and mark_installment_paid clears the arrears.
func TestCollectionLifecycleInTheSandbox(t *testing.T) {
	s := newMoneyStack(t, config.Sandbox)
	ctx := t.Context()
	c := s.runningContract(t, "money-sandbox")
	inv := s.checkInvoice(t, c.ID)

	today := s.today(t)
	file := s.collect(t, today, 1)
	items := s.endToEndIDs(t, c.ID)
	checkFile(t, file, inv, items[0][0], "FRST")

	simulate := func(scenario string, input map[string]any) {
		t.Helper()
		input["id"] = c.ID
		status, body, err := s.seller.Do(ctx, http.MethodPost, "/v1/scenario_simulations/"+scenario, map[string]any{"scenario_input": input}, nil)
		if status != http.StatusOK || err != nil {
			t.Fatalf("%s: %d %s %v", scenario, status, body, err)
		}
	}
	simulate("mark_installment_failed", map[string]any{"reason": "AM04"})
	failed := s.awaitEvents(t, "installment.failed", 1)
	s.awaitEvents(t, "contract.in_arrears", 1)
	if got := s.firstInstallment(t, c.ID); got != "failed" {
		t.Errorf("the returned installment is %s", got)
	}
	if !strings.Contains(fmt.Sprint(failed[0].Body), c.ID) {
		t.Errorf("installment.failed does not name the contract: %v", failed[0].Body)
	}
	s.checkLedger(t)

	if err := s.seller.AdvanceContractClock(ctx, c.ID, today.AddDays(14).String()); err != nil {
		t.Fatal(err)
	}
	s.awaitEvents(t, "contract.payment_reminder", 2)
	fees := s.awaitEvents(t, "invoice.issued", 2)
	if !slices.ContainsFunc(fees, func(e event) bool { g, _ := e.Body["gross"].(float64); return g == 4000 }) {
		t.Errorf("no invoice of the 40.00 flat fee: %v", fees)
	}
	s.checkLedger(t)

	// The next day's run presents the returned installment again; the fee
	// falls due on the contract's clock, two weeks ahead, and waits.
	retry := s.collect(t, today.AddDays(1), 1)
	items = s.endToEndIDs(t, c.ID)
	if len(items) != 2 || items[0][1] != "returned" || items[1][1] != "submitted" {
		t.Fatalf("collections after the return: %v", items)
	}
	checkFile(t, retry, inv, items[1][0], "FRST")
	simulate("mark_installment_paid", map[string]any{})
	s.awaitEvents(t, "contract.arrears_cleared", 1)
	if got := s.firstInstallment(t, c.ID); got != "paid" {
		t.Errorf("the installment presented again is %s", got)
	}
	s.checkLedger(t)
	s.checkNoIBAN(t)
}
