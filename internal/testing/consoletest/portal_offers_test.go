package consoletest

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
	"github.com/tenurehq/tenure/services"
)

// An agent at the counter, on a phone in German, builds an offer: finds
// the product as they type, adds it, reads the monthly prices out, enters
// the customer, is told beside the field what the Seller API refuses,
// creates the offer and hands its checkout link over, which opens the
// hosted checkout.
func TestAgentBuildsAnOfferAtTheCounter(t *testing.T) {
	s := newStack(t)
	email := "verkauf@musterhandel.example"
	password, secret := newSellerUser(t, s.svc, s.sellerID, email, console.Agent)
	p := openConsole(t, s.svc, browsertest.Window{Width: 360, Height: 780, AcceptLanguage: "de-DE,de;q=0.9,en;q=0.5"}, "portal", tabTimeout, pageTimeout)

	p.Open(s.url + "/console/portal/offers/new")
	p.WaitText("h1", "Anmelden")
	signInAs(p, email, password, secret)
	p.WaitText("h1", "Neues Angebot")
	checkScreen(p, "builder")

	// The search answers as the agent types, without a form sent.
	p.Do(chromedp.SendKeys(chromedp.CSS("#q"), "Serv"))
	p.WaitText("#catalog-results", "Server")
	p.WaitText("#catalog-results", "5.000,00")
	checkScreen(p, "search")
	p.Click("#catalog-results button[name=add]")
	p.WaitText("#line-0", "Server")
	p.WaitText("#prices", "Monate")
	if q := browsertest.Eval[string](p, "document.querySelector('#line_quantity_0').value"); q != "1" {
		t.Errorf("the added line's quantity is %q, want 1", q)
	}
	// Two units: the prices follow the basket.
	p.Do(chromedp.SetValue(chromedp.CSS("#line_quantity_0"), "2"))
	before := browsertest.Eval[string](p, "document.querySelector('#prices tbody').textContent")
	p.Click("button[name=action][value=update]")
	p.Poll("the prices of two servers", func() (string, bool) {
		now := browsertest.Eval[string](p, "(document.querySelector('#prices tbody') || {}).textContent || ''")
		return now, now != "" && now != before
	})
	checkScreen(p, "basket priced")

	// A company name of two letters is what POST /v1/offers refuses too:
	// the message stands beside the field, the basket is kept.
	p.Do(
		chromedp.Click(chromedp.CSS("#channel-in_store_pos")),
		chromedp.SendKeys(chromedp.CSS("#company"), "AB"),
		chromedp.SendKeys(chromedp.CSS("#full_name"), "Erika Mustermann"),
		chromedp.SendKeys(chromedp.CSS("#email"), "erika@kunde.example"),
	)
	p.Click("button[name=action][value=create]")
	p.WaitText("#company-problem", "mindestens 3 Zeichen")
	p.WaitText("main .problem", "nicht erstellt")
	if invalid := browsertest.Eval[string](p, "document.querySelector('#company').getAttribute('aria-invalid')"); invalid != "true" {
		t.Errorf("the company field is not marked invalid: %q", invalid)
	}
	p.WaitText("#line-0", "Server")
	checkScreen(p, "validation")

	p.WaitText("#agent_phone-problem", "Pflichtfeld")
	p.Do(
		chromedp.SetValue(chromedp.CSS("#company"), "Musterkunde GmbH"),
		chromedp.SendKeys(chromedp.CSS("#agent_phone"), "+49 30 1234567"),
	)
	p.Click("button[name=action][value=create]")
	p.WaitText("h1", "Musterkunde GmbH")
	p.WaitText("main .notice", "Angebot wurde erstellt")
	p.Poll("the QR code to load", func() (string, bool) {
		w := browsertest.Eval[int](p, "document.querySelector('.qr img').naturalWidth")
		return "", w > 0
	})
	link := browsertest.Eval[string](p, "document.querySelector('#checkout-url').value")
	p.Click("button[data-copy]")
	p.Poll("the copy button to answer", func() (string, bool) {
		said := browsertest.Eval[string](p, "document.querySelector('#copy-status').textContent")
		return said, said != ""
	})
	checkScreen(p, "checkout link")

	// The offer is the Seller API's: made by the agent, in store.
	offerID := strings.Split(browsertest.Eval[string](p, "location.pathname"), "/portal/offers/")[1]
	id := uuid.MustParse(offerID)
	o, err := s.svc.Offers.Get(t.Context(), s.sellerID, id)
	if err != nil {
		t.Fatal(err)
	}
	if o.Row.SalesChannel != "in_store_pos" || o.Document.SalesAgent == nil || o.Document.SalesAgent.Email != email ||
		o.Document.Lines[0].Quantity != 2 || o.Document.CheckoutURL != link {
		t.Errorf("the offer made is %s by %+v with %d units and link %q", o.Row.SalesChannel, o.Document.SalesAgent, o.Document.Lines[0].Quantity, o.Document.CheckoutURL)
	}

	// The agent finds the offer again among their own.
	p.Open(s.url + "/console/portal/offers?mine=1")
	p.WaitText("#offer-"+offerID, "Musterkunde GmbH")
	p.WaitText("#offer-"+offerID, "Im Laden")
	checkScreen(p, "offers")

	// With their name and phone in their sales profile, the agent does
	// not type them for the next offer.
	p.Open(s.url + "/console/portal/profile")
	p.WaitText("h1", "Mein Verkäuferprofil")
	p.Do(chromedp.SendKeys(chromedp.CSS("#full_name"), "Vera Verkauf"), chromedp.SendKeys(chromedp.CSS("#phone"), "+49 30 1234567"))
	p.Click("form[action='/console/portal/profile'] button")
	p.WaitText("main .notice", "Verkäuferprofil ist gespeichert")
	checkScreen(p, "sales profile")
	p.Open(s.url + "/console/portal/offers/new")
	p.WaitText("h1", "Neues Angebot")
	if agent := browsertest.Eval[string](p, "document.querySelector('#agent_name').value + ' / ' + document.querySelector('#agent_phone').value"); agent != "Vera Verkauf / +49 30 1234567" {
		t.Errorf("the next offer's agent is %q, want the sales profile's", agent)
	}

	// The customer's phone opens the link the QR code carries.
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	p.Open(s.url + u.RequestURI())
	p.WaitText("main h1", "Ihr Mietangebot")
	p.Screenshot("hosted checkout")

	entries, err := s.svc.Console.Accounts.AuditOf(t.Context(), services.OfferTarget(id))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Action != "portal.offer.create" || entries[0].Outcome != console.Succeeded || entries[0].ActorEmail != email {
		t.Errorf("the audit log has %+v for the offer, want its creation by %s", entries, email)
	}
}
