package consoletest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stack is Tenure in production with one seller whose offers wait for an
// operator, and the services to check what the console did; tune adjusts
// its configuration.
type stack struct {
	url      string
	sellerID uuid.UUID
	svc      *services.Services
}

func newStack(t *testing.T, tune ...func(*config.Config)) *stack {
	t.Helper()
	cfg := testenv.Config(t)
	cfg.Environment = config.Production
	for _, f := range tune {
		f(cfg)
	}
	store := testenv.Database(t)
	tc := testenv.Temporal(t)
	testenv.Worker(t, cfg, store, tc)
	svc := testenv.Services(t, cfg, store, tc)
	base := testenv.API(t, cfg, store, tc)
	seller, err := auth.CreateSeller(t.Context(), store, "Musterhandel GmbH", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	testenv.Catalog(t, store, cfg, seller.Seller.ID, "EUR", catalog.ProductInput{
		Title: "Server", Type: "hardware", IsActive: true,
		Price:      catalog.Money{Currency: "EUR", Net: 500000, Gross: 595000},
		References: []catalog.Reference{{Source: "sku", Reference: "server"}},
	})
	return &stack{url: base, sellerID: seller.Seller.ID, svc: svc}
}

// offerInReview creates an offer of six servers for a company, which the
// default risk rules leave to an operator, and waits until it is there.
func (s *stack) offerInReview(t *testing.T, company string) uuid.UUID {
	t.Helper()
	return s.companyOfferInReview(t, company, nil, 6)
}

// companyOfferInReview creates an offer of servers (€5,000 net each) for a
// company, with its VAT number when given, and waits until the default
// risk rules left it to an operator.
func (s *stack) companyOfferInReview(t *testing.T, company string, vat *string, servers int64) uuid.UUID {
	t.Helper()
	o, err := s.svc.Offers.Create(t.Context(), s.sellerID, offers.Request{
		Reference: "console-" + uuid.NewString()[:8], SalesChannel: "telesales", ExpiresAt: time.Now().Add(time.Hour),
		Customer:        &offers.Customer{Company: &offers.Company{Name: &company, VATNumber: vat}},
		ShippingAddress: &offers.Address{City: "Berlin", CountryCode: "DE", Line1: "Hauptstraße 1", PostalCode: "10115"},
		Lines: []offers.LineRequest{{
			Title: "Server", Quantity: servers, Product: catalog.Reference{Source: "sku", Reference: "server"},
			Price: offers.PriceRequest{Currency: "EUR", Net: 500000},
		}},
	}, offers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := o.Row.ID
	if err := s.svc.Offers.SubmitForReview(t.Context(), s.sellerID, id); err != nil {
		t.Fatal(err)
	}
	s.await(t, id, "pending_review", func(o offers.Stored) bool { return o.Document.RiskReview != nil })
	return id
}

// await waits until an offer has a status (and, when given, more).
func (s *stack) await(t *testing.T, id uuid.UUID, status string, more func(offers.Stored) bool) {
	t.Helper()
	eventually(t, func() (string, bool) {
		o, err := s.svc.Offers.Get(t.Context(), s.sellerID, id)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("offer %s is %s, want %s", id, o.Row.Status, status), o.Row.Status == status && (more == nil || more(o))
	})
}

// eventually calls check every 100 ms until it holds, and fails the test
// with what check saw last once 30 s have passed: for what the workflows
// record a moment after the call a test can wait for.
func eventually(t *testing.T, check func() (seen string, ok bool)) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		seen, ok := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(seen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// words are what the pages say in a language, as the test looks for them.
type words struct {
	signIn, refused, raced, queue, accepted, declined, audit, acceptedEntry, declinedEntry string
}

var (
	english = words{signIn: "Sign in", refused: "is not right", raced: "it is accepted now", queue: "Review queue", accepted: "The offer was accepted", declined: "The offer was declined",
		audit: "Audit log", acceptedEntry: "Offer accepted", declinedEntry: "Offer declined"}
	german = words{signIn: "Anmelden", refused: "stimmen nicht", raced: "Status ist jetzt accepted", queue: "Prüfungen", accepted: "Das Angebot wurde angenommen", declined: "Das Angebot wurde abgelehnt",
		audit: "Protokoll", acceptedEntry: "Angebot angenommen", declinedEntry: "Angebot abgelehnt"}
)

func TestOperatorWorksTheReviewQueue(t *testing.T) {
	s := newStack(t)
	for _, run := range []struct {
		name   string
		window browsertest.Window
		words  words
	}{
		{"desktop English", browsertest.Window{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}, english},
		{"phone German", browsertest.Window{Width: 360, Height: 780, AcceptLanguage: "de-DE,de;q=0.9,en;q=0.5"}, german},
	} {
		t.Run(run.name, func(t *testing.T) {
			email := strings.ReplaceAll(strings.ToLower(run.name), " ", "-") + "@example.com"
			password, secret := newOperator(t, s.svc, email, console.Admin)
			accepted := s.offerInReview(t, "Accepted "+run.name+" GmbH")
			declined := s.offerInReview(t, "Declined "+run.name+" GmbH")
			raced := s.offerInReview(t, "Raced "+run.name+" GmbH")
			reason := "Company register entry could not be confirmed (" + run.name + ")"

			p := openConsole(t, s.svc, run.window, "console", tabTimeout, pageTimeout)

			// Signed out, the console sends the operator to sign in.
			p.Open(s.url + "/console/review")
			p.WaitText("h1", run.words.signIn)
			checkScreen(p, "sign-in")
			// A wrong code is refused on the page, the form kept.
			sendSignIn(p, email, password, wrongCode(secret))
			p.WaitText("main .problem", run.words.refused)
			checkScreen(p, "sign-in refused")
			if kept := browsertest.Eval[string](p, "document.querySelector('#email').value"); kept != email {
				t.Errorf("the refused form kept the address %q, want %q", kept, email)
			}
			sendSignIn(p, "", password, totpNow(secret))
			p.WaitText("h1", run.words.queue)
			p.WaitText(fmt.Sprintf("#offer-%s", accepted), "Accepted "+run.name+" GmbH")
			p.WaitText(fmt.Sprintf("#offer-%s .risk", accepted), "default-")
			checkScreen(p, "queue")

			// An offer decided elsewhere while the page was open is refused
			// with the workflow's reason, and leaves the queue.
			if err := s.svc.Offers.Accept(t.Context(), s.sellerID, raced); err != nil {
				t.Fatal(err)
			}
			p.Click(fmt.Sprintf("#offer-%s form[action$='/accept'] button", raced))
			p.WaitText("main .problem", run.words.raced)
			gone(p, raced)
			checkScreen(p, "refused")

			p.Click(fmt.Sprintf("#offer-%s form[action$='/accept'] button", accepted))
			p.WaitText("main .notice", run.words.accepted)
			gone(p, accepted)
			s.await(t, accepted, "accepted", nil)
			checkScreen(p, "accepted")

			p.Click(fmt.Sprintf("#offer-%s details summary", declined))
			p.Do(chromedp.SendKeys(chromedp.CSS(fmt.Sprintf("#reason-%s", declined)), reason))
			p.Click(fmt.Sprintf("#offer-%s form[action$='/decline'] button", declined))
			p.WaitText("main .notice", run.words.declined)
			gone(p, declined)
			s.await(t, declined, "declined", nil)

			p.Open(s.url + "/console/offers/" + declined.String())
			p.WaitText("main", "declined")
			p.WaitText("main ol.decisions", reason)
			p.WaitText("main ol.decisions", email)
			checkScreen(p, "offer")

			p.Open(s.url + "/console/audit")
			p.WaitText("h1", run.words.audit)
			p.WaitText("main", run.words.acceptedEntry)
			p.WaitText("main", run.words.declinedEntry)
			p.WaitText("main", reason)
			p.WaitText("main", email)
			checkScreen(p, "audit")
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
	if counts["offer.accept"] != 2 || counts["offer.decline"] != 2 || counts["sign_in"] != 2 {
		t.Errorf("the audit log counts %v, want two sign-ins, acceptances and declines", counts)
	}
}

// wrongCode is a code that is none of the steps the server accepts now.
func wrongCode(secret []byte) string {
	step := console.TOTPStep(time.Now())
	for candidate := 0; ; candidate++ {
		code := fmt.Sprintf("%06d", candidate)
		if code != console.TOTPCode(secret, step-1) && code != console.TOTPCode(secret, step) && code != console.TOTPCode(secret, step+1) &&
			code != console.TOTPCode(secret, step+2) {
			return code
		}
	}
}

// gone waits until an offer's card left the queue.
func gone(p *browsertest.Page, id uuid.UUID) {
	p.T.Helper()
	p.Poll("offer "+id.String()+" to leave the queue", func() (string, bool) {
		n := browsertest.Eval[int](p, fmt.Sprintf("document.querySelectorAll('#offer-%s').length", id))
		return fmt.Sprint(n), n == 0
	})
}
