package consoletest

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
	"github.com/tenurehq/tenure/internal/testing/csvgen"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
)

// uploadWords are what the portal's pages say in a language as a seller's
// admin uploads a catalog and redelivers an event, as the test looks for
// them.
type uploadWords struct {
	signIn, upload, completed, events, redelivered, runTwo, endpoints, health string
}

var (
	uploadEnglish = uploadWords{signIn: "Sign in", upload: "Upload the catalog", completed: "The import is complete", events: "Webhook events",
		redelivered: "being delivered again", runTwo: "run 2, attempt 1", endpoints: "Webhook endpoints", health: "Webhooks health"}
	uploadGerman = uploadWords{signIn: "Anmelden", upload: "Katalog hochladen", completed: "Der Import ist abgeschlossen", events: "Webhook-Ereignisse",
		redelivered: "erneut zugestellt", runTwo: "Lauf 2, Versuch 1", endpoints: "Webhook-Endpunkte", health: "Webhook-Zustand"}
)

// A seller's admin uploads a CSV file and watches its progress bar fill
// to the end, downloads nothing but sees the error file's link, then
// redelivers a webhook event from its page and sees the new attempt; an
// operator of finance finds the endpoint in the webhooks health. In
// English at 1280 px and in German at 360 px, each page axe-clean,
// without CSP violations, no wider than the window, and kept as a
// screenshot.
func TestPortalUploadAndRedeliver(t *testing.T) {
	cfg := testenv.Config(t)
	cfg.Environment = config.Production
	cfg.Webhooks.AllowPrivateAddresses = true
	store := testenv.Database(t)
	tc := testenv.Temporal(t)
	testenv.Worker(t, cfg, store, tc)
	svc := testenv.Services(t, cfg, store, tc)
	base := testenv.API(t, cfg, store, tc)
	receiver := testenv.NewReceiver(t, testenv.Always(http.StatusOK))

	var file strings.Builder
	stats, err := csvgen.Generate(&file, 3000, 7)
	if err != nil {
		t.Fatal(err)
	}
	csvPath := filepath.Join(t.TempDir(), "katalog.csv")
	if err := os.WriteFile(csvPath, []byte(file.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	for _, run := range []struct {
		name   string
		window browsertest.Window
		words  uploadWords
	}{
		{"desktop English", browsertest.Window{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}, uploadEnglish},
		{"phone German", browsertest.Window{Width: 360, Height: 780, AcceptLanguage: "de-DE,de;q=0.9,en;q=0.5"}, uploadGerman},
	} {
		t.Run(run.name, func(t *testing.T) {
			slug := strings.ReplaceAll(strings.ToLower(run.name), " ", "-")
			seller, err := auth.CreateSeller(t.Context(), store, "Portal "+run.name+" GmbH", "EUR")
			if err != nil {
				t.Fatal(err)
			}
			sellerID := seller.Seller.ID
			endpoint, _, err := svc.Webhooks.CreateEndpoint(t.Context(), sellerID, webhook.EndpointInput{URL: receiver.URL, Description: run.name})
			if err != nil {
				t.Fatal(err)
			}
			ping, err := svc.Webhooks.Ping(t.Context(), sellerID, endpoint.ID)
			if err != nil {
				t.Fatal(err)
			}
			awaitDelivered(t, svc, sellerID, ping.ID)

			// Longer bounds than the other tests': the import of 3000 rows
			// and the redelivery run through workflows before a page shows
			// them.
			p := openConsole(t, svc, run.window, "console-portal", 4*time.Minute, 30*time.Second)

			// The seller's admin signs in on the way to the upload form.
			admin := "admin-" + slug + "@example.com"
			password, secret := newSellerUser(t, svc, sellerID, admin, console.Admin)
			p.Open(base + "/console/catalog/imports")
			p.WaitText("h1", run.words.signIn)
			signInAs(p, admin, password, secret)
			p.WaitText("h1", run.words.upload)
			checkScreen(p, "upload form")

			p.Do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{csvPath}))
			p.Click("main form button[type=submit]")
			p.Poll("the import's page", func() (string, bool) {
				n := browsertest.Eval[int](p, "document.querySelectorAll('#import-progress progress').length")
				return fmt.Sprint(n), n == 1
			})
			checkScreen(p, "import in progress")
			p.WaitText("#import-progress", run.words.completed)
			bar := browsertest.Eval[[]float64](p, "(() => { const b = document.querySelector('#import-progress progress'); return [b.value, b.max]; })()")
			if len(bar) != 2 || bar[1] == 0 || bar[0] != bar[1] {
				t.Errorf("the finished bar is %v, want full", bar)
			}
			p.WaitText("#import-processed", fmt.Sprintf("%d / %d", stats.Rows, stats.Rows))
			p.WaitText("#import-failed", fmt.Sprint(stats.Invalid))
			if href := browsertest.Eval[string](p, "(document.querySelector('#import-errors') || {}).href || ''"); !strings.HasSuffix(href, "/errors.csv") {
				t.Errorf("the error file's link is %q", href)
			}
			checkScreen(p, "import completed")
			p.Click("main > p a[href='/console/catalog/imports']")
			p.WaitText("main ol.imports", "katalog.csv")
			checkScreen(p, "imports list")

			// The event log, then the ping's page: redeliver it and see the
			// new run's attempt.
			p.Open(base + "/console/webhooks")
			p.WaitText("h1", run.words.events)
			p.WaitText("#event-"+ping.ID.String(), "ping")
			checkScreen(p, "event log")
			p.Click("#event-" + ping.ID.String() + " h2 a")
			p.WaitText("main", ping.ID.String())
			p.Click("main form[action$='/redeliver'] button")
			p.WaitText("main .notice", run.words.redelivered)
			awaitRun(t, svc, sellerID, ping.ID, 2)
			p.Open(base + "/console/webhooks/events/" + ping.ID.String())
			p.WaitText("main ol.attempts", run.words.runTwo)
			checkScreen(p, "event redelivered")

			p.Open(base + "/console/webhooks/endpoints")
			p.WaitText("h1", run.words.endpoints)
			p.WaitText("#endpoint-"+endpoint.ID.String(), receiver.URL)
			if strings.Contains(browsertest.Eval[string](p, "document.body.innerHTML"), "whsec_") {
				t.Error("the endpoints page shows a secret")
			}
			checkScreen(p, "endpoints")
			p.Click("header form button[type=submit]")
			p.WaitText("h1", run.words.signIn)

			// An operator of finance finds the endpoint and its deliveries.
			operator := "finance-" + slug + "@example.com"
			opPassword, opSecret := newOperator(t, svc, operator, console.Finance)
			p.Open(base + "/console/webhooks/health")
			p.WaitText("h1", run.words.signIn)
			signInAs(p, operator, opPassword, opSecret)
			p.WaitText("h1", run.words.health)
			p.WaitText("#endpoint-"+endpoint.ID.String(), receiver.URL)
			checkScreen(p, "webhooks health")
			p.Click("#endpoint-" + endpoint.ID.String() + " h2 a")
			p.WaitText("#delivery-"+ping.ID.String(), "ping")
			checkScreen(p, "endpoint deliveries")

			entries, err := svc.Console.Accounts.AuditLog(t.Context(), "", time.Time{}, uuid.Nil)
			if err != nil {
				t.Fatal(err)
			}
			done := map[string]int{}
			for _, e := range entries {
				if e.Outcome == console.Succeeded && (e.ActorEmail == admin || e.ActorEmail == operator) {
					done[e.Action]++
				}
			}
			if done["catalog.import"] != 1 || done["webhook.redeliver"] != 1 || done["sign_in"] != 2 || done["sign_out"] != 1 {
				t.Errorf("the audit log counts %v for the run, want an import, a redelivery, two sign-ins and a sign-out", done)
			}
		})
	}
}

// awaitDelivered waits until every delivery of an event is delivered.
func awaitDelivered(t *testing.T, svc *services.Services, sellerID, eventID uuid.UUID) {
	t.Helper()
	awaitRun(t, svc, sellerID, eventID, 1)
}

// awaitRun waits until every delivery of an event is delivered in a run.
func awaitRun(t *testing.T, svc *services.Services, sellerID, eventID uuid.UUID, run int32) {
	t.Helper()
	eventually(t, func() (string, bool) {
		ev, err := svc.Webhooks.Event(t.Context(), sellerID, eventID, false)
		if err != nil {
			t.Fatal(err)
		}
		done := len(ev.Deliveries) > 0
		for _, d := range ev.Deliveries {
			done = done && d.Run == run && d.Status == webhook.DeliveryDelivered
		}
		return fmt.Sprintf("event %s: deliveries %+v, want run %d delivered", eventID, ev.Deliveries, run), done
	})
}
