package checkouttest

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/links"
)

// TestCheckoutLinks opens checkout links that lead to no checkout: each
// screen says what happened in the customer's language, runs within the
// page's policy and passes axe-core; and the link of an open offer is
// exchanged for a bearer token that no storage keeps.
func TestCheckoutLinks(t *testing.T) {
	s := newStack(t)
	expiring := s.createOffer(t, "SO-EXPIRING", time.Now().Add(3*time.Second))
	open := s.createOffer(t, "SO-OPEN", time.Now().Add(72*time.Hour))
	page := func(id, query string) string { return s.url + "/checkout/offers/" + id + query }

	t.Run("wrong token", func(t *testing.T) {
		b := newBrowser(t, desktopEnglish)
		b.Open(page(open.ID, "?token=1893456000.not-the-mac"))
		b.waitHeading(msg(t, "en", "end.invalidLink.heading"))
		b.check("invalid-link")

		// The switcher, with the keyboard: the screen speaks German at
		// once and stays German after a reload in this tab.
		b.selectOption("#language", "de", true)
		b.waitHeading(msg(t, "de", "end.invalidLink.heading"))
		if lang := eval[string](b, "document.documentElement.lang"); lang != "de" {
			t.Errorf("the page's language is %q after switching to German", lang)
		}
		b.Do(chromedp.Reload())
		b.waitHeading(msg(t, "de", "end.invalidLink.heading"))
		b.check("invalid-link-german")
	})

	t.Run("no such offer", func(t *testing.T) {
		b := newBrowser(t, desktopDutch)
		id := uuid.NewString()
		token := links.NewSigner(s.cfg.Links.SigningKey).Sign(offers.TokenPurpose, id, time.Now().Add(time.Hour))
		b.Open(page(id, "?token="+url.QueryEscape(token)))
		b.waitHeading(msg(t, "nl", "end.notFound.heading"))
		b.check("not-found")
	})

	t.Run("not an offer id", func(t *testing.T) {
		b := newBrowser(t, desktopEnglish)
		b.Open(page("nothing-here", "?token=x"))
		b.waitHeading(msg(t, "en", "end.invalidLink.heading"))
	})

	t.Run("back from the provider in another browser", func(t *testing.T) {
		b := newBrowser(t, phoneGerman)
		b.Open(page(open.ID, "?idv_session="+uuid.NewString()))
		b.waitHeading(msg(t, "de", "end.missingToken.heading"))
		b.check("missing-link")
	})

	t.Run("expired offer", func(t *testing.T) {
		var o offer
		deadline := time.Now().Add(time.Minute)
		for o.Status != "expired" && time.Now().Before(deadline) {
			time.Sleep(500 * time.Millisecond)
			s.call(t, http.MethodGet, "/v1/offers/"+expiring.ID, nil, http.StatusOK, &o)
		}
		if o.Status != "expired" {
			t.Fatalf("the offer did not expire: %s", o.Status)
		}
		b := newBrowser(t, phoneGerman)
		b.Open(expiring.CheckoutURL)
		b.waitHeading(msg(t, "de", "end.expiredLink.heading"))
		text := b.WaitText("main .lead", before(t, "de", "end.expiredLink.text"))
		// A German long date: "am 3. Mai 2027 abgelaufen".
		if !regexp.MustCompile(`am \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4} abgelaufen`).MatchString(text) {
			t.Errorf("the expiry date is not written the German way: %q", text)
		}
		b.check("expired-link")
	})

	t.Run("open offer", func(t *testing.T) {
		b := newBrowser(t, desktopEnglish)
		b.Open(open.CheckoutURL)
		b.waitHeading(msg(t, "en", "offer.heading"))
		exchanged := b.Poll("the token exchange", func() (string, bool) {
			status := eval[int](b, `(() => { const e = performance.getEntriesByType('resource').find((r) => r.name.endsWith('/oauth2/token')); return e ? e.responseStatus : 0; })()`)
			return http.StatusText(status), status == http.StatusOK
		})
		t.Logf("token exchange: %s", exchanged)
		if n := eval[int](b, "localStorage.length"); n != 0 {
			t.Errorf("the page wrote %d entries to localStorage", n)
		}
		if c := eval[string](b, "document.cookie"); c != "" {
			t.Errorf("the page set cookies: %q", c)
		}
		stored := eval[map[string]string](b, "Object.fromEntries(Object.entries(sessionStorage))")
		token, _ := url.Parse(open.CheckoutURL)
		for key, value := range stored {
			switch {
			case key == "tenure-checkout:"+open.ID && value == token.Query().Get("token"):
			case strings.HasPrefix(key, "tenure-checkout"):
			default:
				t.Errorf("sessionStorage holds %s", key)
			}
			if strings.HasPrefix(value, "eyJ") {
				t.Errorf("sessionStorage holds a bearer token under %s", key)
			}
		}
		if stored["tenure-checkout:"+open.ID] == "" {
			t.Errorf("the shared token is not kept for the return from identity verification: %v", stored)
		}
	})
}
