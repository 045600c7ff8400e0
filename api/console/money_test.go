package console_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	consoleapi "github.com/tenurehq/tenure/api/console"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/payouts"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/keyring"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
	contractflow "github.com/tenurehq/tenure/workflows/contract"
)

// moneyHarness is the console over a real database and Temporal with one
// running contract whose first two installments were collected, and a
// finance operator signed in.
type moneyHarness struct {
	app        *fiber.App
	accounts   *console.Accounts
	session    console.Session
	contractID uuid.UUID
	fileID     uuid.UUID
	fixture    *contracttest.Fixture
	notices    []collectiontest.Notice
}

func newMoneyHarness(t *testing.T) *moneyHarness {
	t.Helper()
	store := testenv.Database(t)
	f := contracttest.New(t, store, nil)
	ring := collectiontest.Ring(t)
	day, err := civil.ParseDate("2026-03-02")
	if err != nil {
		t.Fatal(err)
	}
	collectiontest.Running(t, f, ring, "ref-console-money", day)
	runner := collectiontest.Runner(t, store, ring)
	run, err := runner.Submit(t.Context(), day)
	if err != nil {
		t.Fatal(err)
	}
	files, err := runner.WriteFiles(t.Context(), run.ID)
	if err != nil || len(files) != 1 {
		t.Fatalf("files: %d, %v", len(files), err)
	}
	h := &moneyHarness{fileID: files[0].ID, fixture: f}
	rows, err := store.Pool.Query(t.Context(), `SELECT contract_id, end_to_end_id, amount FROM collection_items ORDER BY installment_number`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n collectiontest.Notice
		if err := rows.Scan(&h.contractID, &n.EndToEndID, &n.Cents); err != nil {
			t.Fatal(err)
		}
		h.notices = append(h.notices, n)
	}
	if len(h.notices) != 2 {
		t.Fatalf("%d collections, want the installments of 1 February and 1 March", len(h.notices))
	}
	h.signIn(t, store, &services.Collections{Store: store, Temporal: testenv.Temporal(t), Runner: runner})
	return h
}

// signIn mounts the console over the store and the collections' service
// and signs a new finance operator in.
func (h *moneyHarness) signIn(t *testing.T, store *db.Store, collections *services.Collections) {
	t.Helper()
	totp, err := keyring.Parse([]string{testenv.TestTOTPKey})
	if err != nil {
		t.Fatal(err)
	}
	h.accounts = &console.Accounts{Store: store, TOTPKeys: totp, IdleTimeout: time.Hour, AbsoluteTimeout: time.Hour, Now: time.Now}
	acct, err := h.accounts.CreateOperator(t.Context(), "finance-money@example.com", console.Finance, "")
	if err != nil {
		t.Fatal(err)
	}
	secret := testenv.TOTPSecret(t, acct.ProvisioningURI)
	if h.session, err = h.accounts.SignIn(t.Context(), "finance-money@example.com", acct.Password,
		console.TOTPCode(secret, console.TOTPStep(time.Now())), "192.0.2.9"); err != nil {
		t.Fatal(err)
	}
	h.app = fiber.New()
	if err := consoleapi.Mount(h.app.Group(consoleapi.Base), consoleapi.Deps{
		Service: &services.Console{
			Accounts: h.accounts, Offers: &services.Offers{Store: store}, Orders: &services.Orders{Store: store},
			Contracts: &services.Contracts{Store: store}, Invoices: &services.Invoices{Store: store},
			Collections: collections,
		},
		Assets: consoleapi.Base + "/assets/test", Logger: slog.New(slog.DiscardHandler),
	}); err != nil {
		t.Fatal(err)
	}
}

// get answers a page of the console as the finance operator.
func (h *moneyHarness) get(t *testing.T, path string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(fiber.MethodGet, consoleapi.Base+path, nil)
	req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: h.session.Token})
	return h.read(t, req)
}

// upload posts a bank return file to the import form.
func (h *moneyHarness) upload(t *testing.T, name, content string) (int, string) {
	t.Helper()
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	if err := form.WriteField(consoleapi.CSRFField, h.session.CSRF); err != nil {
		t.Fatal(err)
	}
	if name != "" {
		w, err := form.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, content); err != nil {
			t.Fatal(err)
		}
	}
	if err := form.Close(); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(fiber.MethodPost, consoleapi.Base+"/collections/returns", &body)
	req.Header.Set("Content-Type", form.FormDataContentType())
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: h.session.Token})
	return h.read(t, req)
}

func (h *moneyHarness) read(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := h.app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// contains fails the test for each text a page lacks.
func contains(t *testing.T, page, body string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if !strings.Contains(body, text) {
			t.Errorf("%s lacks %q", page, text)
		}
	}
}

// A finance operator downloads a run's file, imports the bank's
// notification of one collection paid and one returned through the
// console, which settles them as the command line does (the ledger
// balanced, the import audited), and finds the failed installment and the
// contract in dunning on the collections pages and in its timeline; an
// unreadable file and a form without one change nothing.
func TestCollectionsPagesAndReturnImport(t *testing.T) {
	h := newMoneyHarness(t)
	contract := h.contractID.String()

	status, body := h.get(t, "/collections/files")
	contains(t, "the files page", body, "/console/collections/files/"+h.fileID.String(), "tenure", "CORE FRST")
	if status != http.StatusOK {
		t.Errorf("the files page: %d", status)
	}
	status, body = h.get(t, "/collections/files/"+h.fileID.String())
	if status != http.StatusOK || !strings.HasPrefix(body, "<?xml") || !strings.Contains(body, "pain.008.001.08") {
		t.Errorf("the file's download: %d %.200s", status, body)
	}
	status, body = h.get(t, "/collections")
	contains(t, "the installments due", body, "/console/contracts/"+contract, "ref-console-money", "2026-04-01")
	if status != http.StatusOK {
		t.Errorf("the installments due: %d", status)
	}

	// A form without a file, and a file that is no camt.054, are refused
	// and change nothing.
	if status, body := h.upload(t, "", ""); status != http.StatusUnprocessableEntity || !strings.Contains(body, "Choose a camt.054 file") {
		t.Errorf("a form without a file: %d %.300s", status, body)
	}
	if status, body := h.upload(t, "notes.txt", "not a bank file"); status != http.StatusUnprocessableEntity || !strings.Contains(body, "Nothing was imported") {
		t.Errorf("an unreadable file: %d %.300s", status, body)
	}

	camt := new(strings.Builder)
	notices := append([]collectiontest.Notice(nil), h.notices...)
	notices[1].Reason = "AM04"
	if _, err := collectiontest.Notification(notices...).WriteTo(camt); err != nil {
		t.Fatal(err)
	}
	// A file broken after its first notice is refused whole: nothing of it
	// is applied.
	broken := camt.String()[:strings.LastIndex(camt.String(), "<Ntry>")]
	if status, body := h.upload(t, "camt054-broken.xml", broken); status != http.StatusUnprocessableEntity || !strings.Contains(body, "not well-formed XML") {
		t.Errorf("a broken file: %d %.300s", status, body)
	}
	var settled int
	if err := h.accounts.Store.Pool.QueryRow(t.Context(), `SELECT count(*) FROM collection_items WHERE status <> 'submitted'`).Scan(&settled); err != nil || settled != 0 {
		t.Errorf("a broken file settled %d collections (%v)", settled, err)
	}

	status, body = h.upload(t, "camt054-march.xml", camt.String())
	if status != http.StatusOK {
		t.Fatalf("the import: %d %.500s", status, body)
	}
	contains(t, "the import's result", body, "The file was imported", `<dd class="paid">1</dd>`, `<dd class="returned">1</dd>`, `<dd class="unchanged">0</dd>`)
	if err := ledger.Check(t.Context(), h.accounts.Store.Queries); err != nil {
		t.Errorf("ledger: %v", err)
	}
	_, body = h.upload(t, "camt054-march.xml", camt.String())
	contains(t, "the second import's result", body, `<dd class="paid">0</dd>`, `<dd class="unchanged">2</dd>`)

	var installments []string
	rows, err := h.accounts.Store.Pool.Query(t.Context(), `SELECT number || ' ' || status FROM contract_installments WHERE contract_id = $1 AND number <= 2 ORDER BY number`, h.contractID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		installments = append(installments, s)
	}
	if fmt.Sprint(installments) != "[1 paid 2 failed]" {
		t.Errorf("installments %v, want the first paid and the second failed", installments)
	}

	_, body = h.get(t, "/collections/failed")
	contains(t, "the failed installments", body, "row-"+contract+"-2", "reason AM04", "ref-console-money")
	_, body = h.get(t, "/collections/arrears")
	contains(t, "the contracts in dunning", body, "row-"+contract, "1 failed · reminder stage 0")
	// The contract's two reminder stages come, as its workflow takes them;
	// the second adds the fee and interest charges.
	since := civil.DateOf(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC))
	row := contractflow.Transitions.Must(contracts.Running, contractflow.Remind)
	for stage := 1; stage <= 2; stage++ {
		in := activities.ContractTransition{ContractID: h.contractID, SellerID: h.fixture.SellerID, From: row.From, To: row.To, Event: row.Event,
			Today: since.AddDays(7 * stage)}
		if _, err := h.fixture.Contracts.Remind(t.Context(), activities.ContractReminder{ContractTransition: in, Stage: stage, Since: since}); err != nil {
			t.Fatal(err)
		}
	}
	if err := ledger.Check(t.Context(), h.accounts.Store.Queries); err != nil {
		t.Errorf("ledger after the reminders: %v", err)
	}
	_, body = h.get(t, "/collections/arrears")
	contains(t, "the contracts in dunning after two reminders", body, "row-"+contract, "1 failed · reminder stage 2")
	failedAttempt(t, h.accounts.Store, h.contractID)
	_, body = h.get(t, "/contracts/"+contract)
	contains(t, "the contract's page", body, "collection returned", "installment failed", h.notices[1].EndToEndID, "AM04",
		"/console/collections/files/"+h.fileID.String(),
		"contract.started", "contract.installment_due", "contract.payment_reminder", "charge added", "dunning_fee", "https://hooks.example.com/tenure · HTTP 503 · http_status", `class="kind-delivery failed"`)

	// The search finds the contract by its id, its order by the seller's
	// reference; the order links to the contract.
	req := httptest.NewRequest(fiber.MethodGet, consoleapi.Base+"/search?q="+contract, nil)
	req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: h.session.Token})
	resp, err := h.app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/console/contracts/"+contract {
		t.Errorf("searching the contract's id: %d to %q", resp.StatusCode, loc)
	}
	_, body = h.get(t, "/search?q=REF-CONSOLE")
	orderLink := regexp.MustCompile(`/console/orders/[0-9a-f-]{36}`).FindString(body)
	if orderLink == "" {
		t.Fatalf("the search finds no order:\n%.1500s", body)
	}
	_, body = h.get(t, strings.TrimPrefix(orderLink, consoleapi.Base))
	contains(t, "the order's page", body, "/console/contracts/"+contract, "ref-console-money", "/console/offers/")
	if status, _ := h.get(t, "/search?q=ab"); status != http.StatusUnprocessableEntity {
		t.Errorf("a search of two characters: %d, want 422", status)
	}
	if status, _ := h.get(t, "/search?q="+uuid.NewString()); status != http.StatusNotFound {
		t.Errorf("a search of an unknown id: %d, want 404", status)
	}

	entries, err := h.accounts.AuditLog(t.Context(), services.ImportReturnsAction, time.Time{}, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, string(e.Outcome)+": "+e.Target+": "+e.Detail)
	}
	want := []string{
		"succeeded: camt.054 camt054-march.xml: 0 paid, 0 returned, 2 unchanged, 0 not Tenure's",
		"succeeded: camt.054 camt054-march.xml: 1 paid, 1 returned, 0 unchanged, 0 not Tenure's",
	}
	if len(got) != 4 || got[0] != want[0] || got[1] != want[1] || !strings.HasPrefix(got[2], "refused: camt.054 camt054-broken.xml: 0 paid") ||
		!strings.HasPrefix(got[3], "refused: camt.054 notes.txt: 0 paid") {
		t.Errorf("the audit log has\n%s", strings.Join(got, "\n"))
	}
}

// A finance operator lists the payouts, a sent one with its pain.001 file
// as the batch stored it, and downloads the file; an owed payout has none.
func TestPayoutsPage(t *testing.T) {
	store := testenv.Database(t)
	f := contracttest.New(t, store, nil)
	orderID := f.Order(t, "payout-console", contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 120000, MonthlyNet: 3000, Months: 12, Rented: true})
	f.Confirm(t, orderID)
	if shipped := f.Ship(t, orderID, "laptop", "console-sn-1"); !shipped.Complete {
		t.Fatal("the order is not complete")
	}
	if _, err := payouts.SetAccount(t.Context(), store.Queries, f.SellerID, "DE89 3704 0044 0532 0130 00", "COBADEFFXXX"); err != nil {
		t.Fatal(err)
	}
	h := &moneyHarness{}
	h.signIn(t, store, &services.Collections{Store: store})
	_, body := h.get(t, "/payouts")
	contains(t, "the payouts page before the batch", body, "/console/orders/"+orderID.String(), "owed", "Contract Shop")
	if strings.Contains(body, "/file") {
		t.Errorf("an owed payout offers a file:\n%.1500s", body)
	}

	batch, err := payouts.NewBatch(f.Config, store)
	if err != nil {
		t.Fatal(err)
	}
	result, err := batch.Run(t.Context(), civil.DateOf(time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)), time.Now())
	if err != nil || len(result.Files) != 1 {
		t.Fatalf("the batch: %+v (%v)", result, err)
	}
	_, body = h.get(t, "/payouts")
	download := regexp.MustCompile(`/console/payouts/[0-9a-f-]{36}/file`).FindString(body)
	contains(t, "the payouts page after the batch", body, "sent", result.Files[0].MessageID, "2026-11-27")
	status, file := h.get(t, strings.TrimPrefix(download, consoleapi.Base))
	if status != http.StatusOK || !strings.Contains(file, "pain.001.001.09") || !strings.Contains(file, result.Files[0].MessageID) {
		t.Errorf("the pain.001 download: %d %.300s", status, file)
	}
	if status, _ := h.get(t, "/payouts/"+uuid.NewString()+"/file"); status != http.StatusNotFound {
		t.Errorf("an unknown payout's file: %d, want 404", status)
	}
}

// failedAttempt records, through the delivery's own queries, a delivery of
// the contract's first event to an endpoint that answered 503.
func failedAttempt(t *testing.T, store *db.Store, contractID uuid.UUID) {
	t.Helper()
	ctx := t.Context()
	var eventID, sellerID uuid.UUID
	if err := store.Pool.QueryRow(ctx, `SELECT id, seller_id FROM events WHERE object_id = $1 ORDER BY created_at LIMIT 1`, contractID).Scan(&eventID, &sellerID); err != nil {
		t.Fatal(err)
	}
	endpointID := uuid.Must(uuid.NewV7())
	if _, err := store.Pool.Exec(ctx, `INSERT INTO webhook_endpoints (id, seller_id, url, secret) VALUES ($1, $2, 'https://hooks.example.com/tenure', '\x00')`, endpointID, sellerID); err != nil {
		t.Fatal(err)
	}
	if err := store.CreateDelivery(ctx, dbgen.CreateDeliveryParams{EventID: eventID, EndpointID: endpointID, SellerID: sellerID}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.StartAttempt(ctx, dbgen.StartAttemptParams{EventID: eventID, EndpointID: endpointID, Run: 1, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	code, class := int32(503), "http_status"
	if _, err := store.FinishAttempt(ctx, dbgen.FinishAttemptParams{EventID: eventID, EndpointID: endpointID, Run: 1, Attempt: 1,
		Outcome: "failed", StatusCode: &code, ErrorClass: &class}); err != nil {
		t.Fatal(err)
	}
}

// The installments due page by keyset: five contracts' sixty installments
// come in a page of fifty and one of ten, none twice, by due date.
func TestInstallmentsDuePages(t *testing.T) {
	store := testenv.Database(t)
	f := contracttest.New(t, store, nil)
	ring := collectiontest.Ring(t)
	day, err := civil.ParseDate("2026-01-31")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		collectiontest.Running(t, f, ring, fmt.Sprintf("paged-%d", i), day)
	}
	h := &moneyHarness{}
	h.signIn(t, store, &services.Collections{Store: store})
	rowID := regexp.MustCompile(`id="row-([0-9a-f-]{36}-[0-9]+)"`)
	dueDate := regexp.MustCompile(`<dd>(\d{4}-\d\d-\d\d)</dd>`)
	seen := map[string]bool{}
	var dates []string
	path, pages := "/collections", 0
	for path != "" {
		status, body := h.get(t, path)
		if status != http.StatusOK {
			t.Fatalf("%s: %d", path, status)
		}
		pages++
		for _, m := range rowID.FindAllStringSubmatch(body, -1) {
			if seen[m[1]] {
				t.Errorf("installment %s listed twice", m[1])
			}
			seen[m[1]] = true
		}
		for _, m := range dueDate.FindAllStringSubmatch(body, -1) {
			dates = append(dates, m[1])
		}
		next := regexp.MustCompile(`href="/console(/collections\?after=[^"]+)"`).FindStringSubmatch(body)
		path = ""
		if next != nil {
			path = strings.ReplaceAll(next[1], "&amp;", "&")
		}
	}
	if pages != 2 || len(seen) != 60 {
		t.Errorf("%d pages with %d installments, want 2 with 60", pages, len(seen))
	}
	if !slices.IsSorted(dates) || len(dates) != 60 {
		t.Errorf("due dates %v are not in order", dates)
	}
	if status, _ := h.get(t, "/collections?after=yesterday"); status != http.StatusBadRequest {
		t.Errorf("a broken cursor: %d, want 400", status)
	}
}
