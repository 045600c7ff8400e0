package consoletest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// setupWords are what the portal's pages say in a language as a seller's
// admin sets it up, as the test looks for them.
type setupWords struct {
	setup, portal, users, invited, credentials, rotated string
}

var (
	setupEnglish = setupWords{setup: "Set up your account", portal: "Merchant portal", users: "Users", invited: "is invited",
		credentials: "API credentials", rotated: "was replaced"}
	setupGerman = setupWords{setup: "Konto einrichten", portal: "Händlerportal", users: "Benutzer", invited: "ist eingeladen",
		credentials: "API-Zugangsdaten", rotated: "wurde ersetzt"}
)

// A seller's admin opens their invitation link, chooses a password, adds
// the TOTP key from the QR code and confirms it with a code, lands in the
// portal signed in, invites an agent and replaces the secret of an API
// credential; in English at 1280 px and in German at 360 px, each screen
// axe-clean. The audit log has each change.
func TestSellerAdminSetsUpThePortal(t *testing.T) {
	s := newStack(t)
	for _, run := range []struct {
		name   string
		window browsertest.Window
		words  setupWords
	}{
		{"desktop English", browsertest.Window{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}, setupEnglish},
		{"phone German", browsertest.Window{Width: 360, Height: 780, AcceptLanguage: "de-DE,de;q=0.9,en;q=0.5"}, setupGerman},
	} {
		t.Run(run.name, func(t *testing.T) {
			slug := strings.ReplaceAll(strings.ToLower(run.name), " ", "-")
			inv, err := s.svc.Console.Accounts.InviteSellerUser(t.Context(), s.sellerID, "admin-"+slug+"@example.com", console.Admin, "consoletest")
			if err != nil {
				t.Fatal(err)
			}
			creds, err := s.svc.Sellers.Credentials(t.Context(), s.sellerID)
			if err != nil || len(creds) == 0 {
				t.Fatalf("the seller's credentials: %v %v", creds, err)
			}
			clientID, oldHash := creds[0].ClientID, creds[0].SecretHash

			p := openConsole(t, s.svc, run.window, "console", tabTimeout, pageTimeout)

			p.Open(console.InvitationLink(s.url, inv.Token))
			p.WaitText("h1", run.words.setup)
			p.Poll("the QR code to load", func() (string, bool) {
				w := browsertest.Eval[int](p, "document.querySelector('img.qr').naturalWidth")
				return fmt.Sprint(w), w > 0
			})
			checkScreen(p, "invitation")
			secret := testenv.TOTPSecret(t, browsertest.Eval[string](p, "document.querySelector('#totp-uri').value"))
			p.Do(
				chromedp.SendKeys(chromedp.CSS("#password"), "a password for "+slug),
				chromedp.SendKeys(chromedp.CSS("#code"), totpNow(secret)),
			)
			p.Click("form button[type=submit]")
			p.WaitText("h1", run.words.portal)
			p.WaitText("main", "Musterhandel GmbH")
			checkScreen(p, "portal")

			p.Click("main .screens a[href='/console/portal/users']")
			p.WaitText("h1", run.words.users)
			agent := "agent-" + slug + "@example.com"
			p.Do(chromedp.SendKeys(chromedp.CSS("#invite-email"), agent))
			p.Click("form[action='/console/portal/users'] button[type=submit]")
			p.WaitText("main .notice", run.words.invited)
			link := browsertest.Eval[string](p, "document.querySelector('#invitation-link').value")
			if !strings.HasPrefix(link, "http") || !strings.Contains(link, console.InvitationPath) {
				t.Errorf("the invitation link shown: %q", link)
			}
			p.WaitText("main", agent)
			checkScreen(p, "users")

			p.Click("header nav a[href='/console/portal/credentials']")
			p.WaitText("h1", run.words.credentials)
			p.Click(fmt.Sprintf("#credential-%s details summary", clientID))
			checkScreen(p, "credentials")
			p.Click(fmt.Sprintf("#credential-%s form[action$='/rotate'] button", clientID))
			p.WaitText("main .notice", run.words.rotated)
			shown := browsertest.Eval[string](p, "document.querySelector('#client-secret').value")
			checkScreen(p, "credential rotated")
			stored, err := s.svc.Sellers.Client(t.Context(), clientID)
			if err != nil {
				t.Fatal(err)
			}
			if stored.SecretHash == oldHash || !auth.SecretMatches(stored.SecretHash, shown) {
				t.Errorf("the secret shown %q is not the client's new secret", shown)
			}
		})
	}
	entries, err := s.svc.Console.Accounts.AuditLog(t.Context(), "", time.Time{}, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, e := range entries {
		if e.Outcome == console.Succeeded {
			counts[e.Action]++
		}
	}
	for _, action := range []string{"invitation.accept", "seller_user.invite", "credential.rotate"} {
		if counts[action] != 2 {
			t.Errorf("the audit log has %d %s, want 2 (all: %v)", counts[action], action, counts)
		}
	}
}
