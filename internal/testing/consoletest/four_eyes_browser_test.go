package consoletest

import (
	"fmt"
	"testing"
	"time"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
)

// reviewing is a Chromium of its own for a new admin operator, sent to
// sign in on the way to the review queue, its pages in the language of
// say.
func (s *stack) reviewing(t *testing.T, email string, w browsertest.Window, say words) *browsertest.Page {
	t.Helper()
	password, secret := newOperator(t, s.svc, email, console.Admin)
	p := openConsole(t, s.svc, w, "console", tabTimeout, pageTimeout)
	p.Open(s.url + "/console/review")
	p.WaitText("h1", say.signIn)
	signInAs(p, email, password, secret)
	p.WaitText("h1", say.queue)
	return p
}

// Two operators take an offer of €60,000 to an order in Chromium: the
// first approves it and cannot confirm it herself, the queue shows it
// awaiting the second, who confirms; the offer's page shows both steps in
// its timeline, with the customer's open exposure. Then the second, an
// admin, rotates the seller's API client on the seller's page. The first
// works in English at 1280 px, the second in German at 360 px; every
// screen axe-clean and kept as a screenshot.
func TestTwoOperatorsFourEyesAnOfferToAnOrder(t *testing.T) {
	s := newStack(t)
	vat := "DE844444444"
	offer := s.companyOfferInReview(t, "Vieraugen Maschinenbau GmbH", &vat, 12)
	card := fmt.Sprintf("#offer-%s", offer)
	desktop := browsertest.Window{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}

	ana := s.reviewing(t, "ana@example.com", desktop, english)
	ana.WaitText(card, "Vieraugen Maschinenbau GmbH")
	ana.WaitText(card+" .exposure", "€60,000.00")
	ana.WaitText(card, "Above the four-eyes amount")
	checkScreen(ana, "ana-queue")
	ana.Click(card + " form[action$='/accept'] button")
	ana.WaitText("main .notice", "A second operator must confirm it")
	ana.WaitText(card+" .awaiting", "ana@example.com")
	checkScreen(ana, "ana-approved")
	// She is not offered to confirm her own approval; a form of a page
	// older than it (another tab) is refused, and the offer stays in review.
	if n := browsertest.Eval[int](ana, fmt.Sprintf("document.querySelectorAll(%q).length", card+" form[action$='/accept']")); n != 0 {
		t.Errorf("the first approver is offered to confirm her own approval (%d forms)", n)
	}
	ana.WaitText(card+" .awaiting", "Another operator confirms it")
	browsertest.Eval[bool](ana, fmt.Sprintf(`(() => {
		const f = document.createElement('form');
		f.method = 'post';
		f.action = '/console/review/%s/accept';
		const t = document.createElement('input');
		t.type = 'hidden'; t.name = 'csrf_token'; t.value = document.querySelector('input[name=csrf_token]').value;
		f.appendChild(t);
		document.body.appendChild(f);
		f.submit();
		return true;
	})()`, offer))
	ana.WaitText("main .problem", "another operator must confirm it")
	checkScreen(ana, "ana-own-refused")
	s.await(t, offer, "pending_review", nil)

	ben := s.reviewing(t, "ben@example.com", browsertest.Window{Width: 360, Height: 780, AcceptLanguage: "de-DE,de;q=0.9"}, german)
	ben.WaitText(card+" .awaiting", "ana@example.com")
	ben.WaitText(card+" form[action$='/accept'] button", "Bestätigen und annehmen")
	checkScreen(ben, "ben-queue")
	ben.Click(card + " form[action$='/accept'] button")
	ben.WaitText("main .notice", german.accepted)
	gone(ben, offer)
	s.await(t, offer, "accepted", nil)
	order, err := s.svc.Offers.Store.GetOrderByOffer(t.Context(), dbgen.GetOrderByOfferParams{SellerID: s.sellerID, OfferID: offer})
	if err != nil {
		t.Fatalf("the offer has no order: %v", err)
	}

	ben.Open(s.url + "/console/offers/" + offer.String())
	ben.WaitText("main .timeline", "Angebot freigegeben (erste von zwei)")
	ben.WaitText("main .timeline", "Angebot angenommen (zweite Freigabe)")
	ben.WaitText("main .timeline", "ana@example.com")
	ben.WaitText("main .timeline", "ben@example.com")
	ben.WaitText("main .timeline", "offer.accepted")
	if n := browsertest.Eval[int](ben, "document.querySelectorAll('main .timeline a[href=\"/console/orders/"+order.ID.String()+"\"]').length"); n != 1 {
		t.Errorf("the offer's timeline links to its order %d times, want once", n)
	}
	ben.WaitText("main .exposure", "60.000,00")
	checkScreen(ben, "ben-offer-timeline")

	// The seller's page: ben is an admin and rotates its API client.
	ben.Open(s.url + "/console/sellers")
	ben.WaitText("main", "Musterhandel GmbH")
	checkScreen(ben, "ben-sellers")
	ben.Open(s.url + "/console/sellers/" + s.sellerID.String())
	ben.WaitText("h1", "Musterhandel GmbH")
	ben.Click("main .clients form[action$='/rotate'] button")
	ben.WaitText("main .notice", "Der Client hat ein neues Secret")
	secret := ben.WaitText("#new-client-secret", "tsk_")
	checkScreen(ben, "ben-seller-rotated")
	clientID := browsertest.Eval[string](ben, "document.querySelector('#new-client-id').textContent")
	client, err := s.svc.Sellers.Client(t.Context(), clientID)
	if err != nil || !auth.SecretMatches(client.SecretHash, secret) {
		t.Errorf("the secret shown does not sign in client %s: %v", clientID, err)
	}

	entries, err := s.svc.Console.Accounts.AuditLog(t.Context(), "", time.Time{}, [16]byte{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.ActorEmail+" "+e.Action+" "+string(e.Outcome)] = true
	}
	for _, want := range []string{"ana@example.com offer.approve succeeded", "ana@example.com offer.confirm refused",
		"ben@example.com offer.confirm succeeded", "ben@example.com seller.rotate_secret succeeded"} {
		if !seen[want] {
			t.Errorf("the audit log lacks %q", want)
		}
	}
}
