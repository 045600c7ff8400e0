package consoletest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/services"
)

// collected writes a running contract whose first two installments a
// collection run submitted, its file in the console's blob store, and
// answers the contract, the file's message id and the collections'
// notices.
func (s *stack) collected(t *testing.T, reference string) (uuid.UUID, string, []collectiontest.Notice) {
	t.Helper()
	store := s.svc.Offers.Store
	f := contracttest.New(t, store, nil)
	ring := collectiontest.Ring(t)
	day, err := civil.ParseDate("2026-03-02")
	if err != nil {
		t.Fatal(err)
	}
	collectiontest.Running(t, f, ring, reference, day)
	runner := collectiontest.Runner(t, store, ring)
	runner.Bucket = s.svc.Collections.Runner.Bucket
	run, err := runner.Submit(t.Context(), day)
	if err != nil {
		t.Fatal(err)
	}
	files, err := runner.WriteFiles(t.Context(), run.ID)
	if err != nil || len(files) != 1 {
		t.Fatalf("files: %d, %v", len(files), err)
	}
	var contract uuid.UUID
	var notices []collectiontest.Notice
	rows, err := store.Pool.Query(t.Context(), `SELECT contract_id, end_to_end_id, amount FROM collection_items WHERE file_id = $1 ORDER BY installment_number`, files[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n collectiontest.Notice
		if err := rows.Scan(&contract, &n.EndToEndID, &n.Cents); err != nil {
			t.Fatal(err)
		}
		notices = append(notices, n)
	}
	return contract, files[0].MessageID, notices
}

// signedIn is a console tab signed in as a new operator of a role.
func (s *stack) signedIn(t *testing.T, email string, role console.Role, w browsertest.Window, group string) *browsertest.Page {
	t.Helper()
	password, secret := newOperator(t, s.svc, email, role)
	p := openConsole(t, s.svc, w, group, tabTimeout, pageTimeout)
	p.Open(s.url + "/console/sign-in")
	signInAs(p, email, password, secret)
	p.WaitText("header .who", email)
	return p
}

// A finance operator opens the collections, downloads a run's pain.008
// file, imports the bank's camt.054 notification of one collection paid
// and one returned, finds the failed installment and the contract in
// dunning, opens the contract's timeline, its order, and finds the order
// by its reference; at 360 px in German the
// same pages fit. The import is audited and the ledger balanced.
func TestFinanceWorksTheCollections(t *testing.T) {
	s := newStack(t)
	contract, messageID, notices := s.collected(t, "money-browser")
	if len(notices) != 2 {
		t.Fatalf("%d collections, want 2", len(notices))
	}
	notices[1].Reason = "AM04"
	camt := filepath.Join(t.TempDir(), "camt054-march.xml")
	doc := new(strings.Builder)
	if _, err := collectiontest.Notification(notices...).WriteTo(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(camt, []byte(doc.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	p := s.signedIn(t, "finance@example.com", console.Finance, browsertest.Window{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}, "console-money")
	p.WaitText("h1", "Installments due")
	p.WaitText("main", "money-browser")
	checkScreen(p, "due")

	p.Click(".tabs a[href$='/collections/files']")
	p.WaitText("h1", "Collection files")
	p.WaitText("main", messageID)
	checkScreen(p, "files")
	downloads := t.TempDir()
	if _, err := chromedp.CallBrowser(p.Ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads,
	}); err != nil {
		t.Fatal(err)
	}
	p.Click("ol.records a[download]")
	saved := filepath.Join(downloads, messageID+".xml")
	p.Poll("the pain.008 file to download", func() (string, bool) {
		b, err := os.ReadFile(saved)
		return fmt.Sprint(len(b)), err == nil && strings.Contains(string(b), "<MsgId>"+messageID+"</MsgId>")
	})

	p.Click(".tabs a[href$='/collections/returns']")
	p.WaitText("h1", "Import a bank return file")
	p.Do(chromedp.SetUploadFiles("#file", []string{camt}))
	p.Click("main form button[type=submit]")
	p.WaitText("main .notice", "The file was imported")
	p.WaitText("#import-result .paid", "1")
	p.WaitText("#import-result .returned", "1")
	checkScreen(p, "imported")
	if err := ledger.Check(t.Context(), s.svc.Offers.Store.Queries); err != nil {
		t.Errorf("ledger: %v", err)
	}

	p.Click(".tabs a[href$='/collections/failed']")
	p.WaitText("h1", "Failed installments")
	p.WaitText(fmt.Sprintf("#row-%s-2", contract), "reason AM04")
	checkScreen(p, "failed")
	p.Click(".tabs a[href$='/collections/arrears']")
	p.WaitText("h1", "Contracts in dunning")
	p.WaitText(fmt.Sprintf("#row-%s", contract), "reminder stage 0")
	checkScreen(p, "arrears")

	p.Click(fmt.Sprintf("#row-%s a", contract))
	p.WaitText("h1", "Contract")
	p.WaitText("ol.timeline", "collection returned")
	p.WaitText("ol.timeline", "installment failed")
	p.WaitText("ul.installments", "failed")
	checkScreen(p, "contract")

	// The contract leads to its order, which lists it; the search finds
	// the order by the seller's reference.
	p.Click("main a[href^='/console/orders/']")
	p.WaitText("h1", "Order")
	p.WaitText("ul.contracts", "Product laptop")
	checkScreen(p, "order")
	p.Click("header nav a[href='/console/search']")
	p.Do(chromedp.SendKeys(chromedp.CSS("#q"), "MONEY-BROWSER"))
	p.Click("main form button[type=submit]")
	p.WaitText("ol.records", "Müller & Söhne GmbH")
	checkScreen(p, "search")

	// The audit log is the admins': finance may not read it.
	p.Open(s.url + "/console/audit")
	p.WaitText("main .problem", "Your role may not open this page")

	phone := s.signedIn(t, "finanz@example.com", console.Finance, browsertest.Window{Width: 360, Height: 780, AcceptLanguage: "de-DE,de;q=0.9"}, "console-money-phone")
	phone.Open(s.url + "/console/collections/failed")
	phone.WaitText("h1", "Geplatzte Raten")
	checkScreen(phone, "failed-de")
	phone.Open(s.url + "/console/contracts/" + contract.String())
	phone.WaitText("main", "Verlauf")
	checkScreen(phone, "contract-de")
	for _, screen := range []string{"collections", "collections/files", "collections/returns", "payouts", "search?q=money"} {
		phone.Open(s.url + "/console/" + screen)
		phone.WaitText("header .who", "finanz@example.com")
		checkScreen(phone, strings.NewReplacer("/", "-", "?q=", "-").Replace(screen)+"-de")
	}

	entries, err := s.svc.Console.Accounts.AuditLog(t.Context(), services.ImportReturnsAction, time.Time{}, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Outcome != console.Succeeded || entries[0].ActorEmail != "finance@example.com" ||
		entries[0].Detail != "1 paid, 1 returned, 0 unchanged, 0 not Tenure's" {
		t.Errorf("the audit log has %+v, want the finance operator's import", entries)
	}
}
