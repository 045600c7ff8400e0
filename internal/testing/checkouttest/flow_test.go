package checkouttest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
)

// upTo is a message's text up to its first placeholder left after
// filling in pairs: the part of a label a test can know.
func upTo(t *testing.T, lang, key string, pairs ...string) string {
	t.Helper()
	text, _, _ := strings.Cut(msg(t, lang, key, pairs...), "{")
	return text
}

// TestCheckoutInTheSandbox completes whole checkouts: once on a 360 px
// phone in German with the keyboard alone, once on a 1280 px desktop in
// English with the mouse. The customer rents the laptops for 24 months
// with device replacement, makes a mistake in the company data and sees
// it named next to the field, accepts, follows the review through the
// link's status read until the seller's mark_offer_accepted, and goes back
// to the shop.
func TestCheckoutInTheSandbox(t *testing.T) {
	s := newStack(t)
	s.call(t, http.MethodPost, "/v1/discount-codes", map[string]any{"code": "SPRING10", "percent_off": 1000}, http.StatusCreated, nil)
	for _, c := range []struct {
		name     string
		viewport viewport
		lang     string
		keyboard bool
	}{
		{"phone German keyboard", phoneGerman, "de", true},
		{"desktop English mouse", desktopEnglish, "en", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := s.createOffer(t, "SO-SANDBOX-"+c.lang, time.Now().Add(72*time.Hour))
			b := newBrowser(t, c.viewport)
			walkToAcceptance(t, b, o, c.lang, c.keyboard)
			b.waitHeading(msg(t, c.lang, "status.pending.heading"))
			b.check("under-review")

			s.simulate(t, "mark_offer_accepted", o.ID)
			b.waitHeading(msg(t, c.lang, "status.accepted.heading"))
			b.check("accepted")
			// Once accepted, the customer's token opens nothing: the page
			// followed the review through the link's status read alone.
			followed := eval[[]string](b, `(() => {
				const paths = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname);
				return paths.slice(paths.findLastIndex((p) => p.endsWith('/accept')) + 1)
					.filter((p) => p.startsWith('/customer/') || p === '/oauth2/token');
			})()`)
			if len(followed) == 0 {
				t.Error("the page did not read the offer's status after the acceptance")
			}
			for _, path := range followed {
				if path != "/customer/offers/"+o.ID+"/anonymized" {
					t.Errorf("after the acceptance the page called %s; only the link's status read works", path)
				}
			}
			b.press("main a.button", c.keyboard)
			landed := s.shop.waitLanding(t, o.ID)
			q := landed.Query()
			if landed.Path != "/checkout/done" || q.Get("cart") != "42" || q.Get("offer_id") != o.ID ||
				q.Get("status") != "accepted" || q.Get("seller_offer_reference") != o.Reference {
				t.Errorf("the customer landed at %s", landed.String())
			}
		})
	}
}

// TestCheckoutInProduction completes a checkout where the risk review's
// rules accept by themselves, and finds the customer's choices in the
// order.
func TestCheckoutInProduction(t *testing.T) {
	s := newStack(t, func(c *config.Config) { c.Environment = config.Production })
	s.call(t, http.MethodPost, "/v1/discount-codes", map[string]any{"code": "SPRING10", "percent_off": 1000}, http.StatusCreated, nil)
	o := s.createOffer(t, "SO-PRODUCTION", time.Now().Add(72*time.Hour))
	b := newBrowser(t, desktopEnglish)
	walkToAcceptance(t, b, o, "en", false)
	b.waitHeading(msg(t, "en", "status.accepted.heading"))
	b.check("accepted")

	var orders struct {
		Orders []struct {
			ID string `json:"id"`
		} `json:"orders"`
	}
	s.call(t, http.MethodGet, "/v1/orders/paginated?query="+url.QueryEscape(o.Reference), nil, http.StatusOK, &orders)
	if len(orders.Orders) != 1 {
		t.Fatalf("orders of %s: %+v", o.Reference, orders)
	}
	var order struct {
		CustomerInfo struct {
			Company struct {
				Name string `json:"name"`
			} `json:"company"`
		} `json:"customer_info"`
		Lines []struct {
			Title        string `json:"title"`
			ContractType string `json:"contract_type"`
			Duration     int    `json:"duration"`
			Services     []struct {
				Type string `json:"type"`
			} `json:"selected_first_party_services"`
		} `json:"order_lines"`
	}
	s.call(t, http.MethodGet, "/v1/orders/"+orders.Orders[0].ID, nil, http.StatusOK, &order)
	if len(order.Lines) != 2 {
		t.Errorf("the order has %d lines, want the laptops and the mouse", len(order.Lines))
	}
	if order.CustomerInfo.Company.Name != "Buyer Systems GmbH" {
		t.Errorf("the order's company is %q, as the customer entered it: Buyer Systems GmbH", order.CustomerInfo.Company.Name)
	}
	for _, line := range order.Lines {
		switch line.Title {
		case laptopTitle:
			if line.ContractType != "rent" || line.Duration != 24 || len(line.Services) != 1 || line.Services[0].Type != "topi_replace" {
				t.Errorf("the laptops are rented for 24 months with device replacement, the order says %+v", line)
			}
		case mouseTitle:
			if line.ContractType != "pay_now" {
				t.Errorf("the mouse is bought, the order says %+v", line)
			}
		default:
			t.Errorf("unexpected order line %+v", line)
		}
	}
}

// TestCheckoutOfOffersThatAreOver opens the links of offers the seller
// voided or replaced, and of one the review declined; and voids an offer
// while its checkout is open.
func TestCheckoutOfOffersThatAreOver(t *testing.T) {
	s := newStack(t)
	voided := s.createOffer(t, "SO-VOIDED", time.Now().Add(72*time.Hour))

	t.Run("voided", func(t *testing.T) {
		s.simulate(t, "mark_offer_voided", voided.ID)
		b := newBrowser(t, desktopEnglish)
		b.Open(voided.CheckoutURL)
		b.waitHeading(msg(t, "en", "end.voided.heading"))
		b.check("voided")
	})

	t.Run("superseded", func(t *testing.T) {
		old := s.createOffer(t, "SO-EDITED", time.Now().Add(72*time.Hour))
		var edited offer
		s.call(t, http.MethodPut, "/v1/offers/"+old.ID, s.offerPayload("SO-EDITED-2", time.Now().Add(72*time.Hour)), http.StatusAccepted, &edited)
		if edited.ID == old.ID || edited.ID == "" {
			t.Fatalf("editing the offer made no new offer: %+v", edited)
		}
		b := newBrowser(t, phoneGerman)
		b.Open(old.CheckoutURL)
		b.Poll("the new offer's checkout", func() (string, bool) {
			at := b.location()
			return at, strings.Contains(at, "/checkout/offers/"+edited.ID+"?token=")
		})
		b.waitHeading(msg(t, "de", "offer.heading"))
	})

	t.Run("voided during the checkout", func(t *testing.T) {
		o := s.createOffer(t, "SO-VOIDED-LATE", time.Now().Add(72*time.Hour))
		b := newBrowser(t, desktopEnglish)
		b.Open(o.CheckoutURL)
		b.waitHeading(msg(t, "en", "offer.heading"))
		// The void revokes the page's token: its next change is refused,
		// and the page shows what the link says of the offer now.
		s.simulate(t, "mark_offer_voided", o.ID)
		b.press("main button[type=submit]", false)
		b.waitHeading(msg(t, "en", "end.voided.heading"))
		b.check("voided-during-checkout")
	})

	t.Run("declined", func(t *testing.T) {
		o := s.createOffer(t, "SO-DECLINED", time.Now().Add(72*time.Hour))
		s.simulate(t, "mark_offer_for_review", o.ID)
		s.simulate(t, "mark_offer_declined", o.ID)
		b := newBrowser(t, desktopDutch)
		b.Open(o.CheckoutURL)
		b.waitHeading(msg(t, "nl", "status.declined.heading"))
		b.check("declined")
	})
}

// nextOf waits for the heading of one of the screens named by message
// keys, and returns it.
func (b *browser) nextOf(t *testing.T, lang string, keys ...string) string {
	t.Helper()
	return b.Poll(fmt.Sprintf("one of %v", keys), func() (string, bool) {
		h := b.waitHeading("")
		for _, key := range keys {
			if h == msg(t, lang, key) {
				return h, true
			}
		}
		return h, false
	})
}

// walkToAcceptance goes through every step of an open offer up to the
// accept button, checking each screen.
func walkToAcceptance(t *testing.T, b *browser, o offer, lang string, keyboard bool) {
	t.Helper()
	b.Open(o.CheckoutURL)
	b.waitHeading(msg(t, lang, "offer.heading"))
	b.check("offer")
	shown := b.monthlyTotal()
	b.chooseRadio(upTo(t, lang, "term.rent", "months", "24"), keyboard)
	service := "#" + b.idOfLabel(msg(t, lang, "service.service_replace"))
	b.press(service, keyboard)
	if !eval[bool](b, fmt.Sprintf(`document.querySelector(%q).checked`, service)) {
		t.Fatal("device replacement is not chosen")
	}
	b.Poll("the previewed monthly total", func() (string, bool) {
		now := b.monthlyTotal()
		return now, now != "" && now != shown
	})
	b.check("offer-chosen")
	b.press("main button[type=submit]", keyboard)

	b.waitHeading(msg(t, lang, "company.title"))
	b.check("company")
	// The VAT number lacks four digits.
	for _, entry := range [][2]string{
		{"end_customer.name", "Buyer Systems GmbH"},
		{"end_customer.billing_address.country_code", "DE"},
		{"end_customer.type", "de_gmbh"},
		{"end_customer.company_registration_number", "HRB 123456 B"},
		{"end_customer.vat_number", "DE12345"},
		{"end_customer.billing_address.line1", "Torstraße 1"},
		{"end_customer.billing_address.postal_code", "10119"},
		{"end_customer.billing_address.city", "Berlin"},
		{"end_user.first_name", "Berta"},
		{"end_user.last_name", "Buyer"},
		{"end_user.phone_country_code", "DE"},
		{"end_user.phone_national_number", "030 1234567"},
	} {
		b.enter(field(entry[0]), entry[1], keyboard)
	}
	b.press("main button[type=submit]", keyboard)
	vat := field("end_customer.vat_number")
	said := b.Poll("the VAT number's error next to it", func() (string, bool) {
		text := b.errorOf(vat)
		return text, text != ""
	})
	if lang != "en" && said != msg(t, lang, "errors.invalid_format") {
		t.Errorf("the VAT number's error says %q, want %q", said, msg(t, lang, "errors.invalid_format"))
	}
	if !eval[bool](b, fmt.Sprintf(`document.activeElement.matches(%q)`, vat)) {
		t.Error("the focus is not on the field in error")
	}
	b.check("company-mistake")
	b.typeInto(vat, "DE123456789", keyboard)
	b.press("main button[type=submit]", keyboard)

	b.waitHeading(msg(t, lang, "delivery.title"))
	if got := eval[string](b, fmt.Sprintf(`document.querySelector(%q).value`, field("shipping_address.line1"))); got != "Torstraße 1" {
		t.Errorf("the delivery address is not prefilled from the offer: line 1 %q", got)
	}
	b.check("delivery")
	b.press("main button[type=submit]", keyboard)

	next := b.nextOf(t, lang, "identity.title", "payment.title", "review.title")
	if next == msg(t, lang, "identity.title") {
		b.check("identity")
		b.press("main button.primary", keyboard)
		b.waitHeading("Identity verification (simulation)")
		b.press(`button[value="verified"]`, keyboard)
		b.WaitText("main", msg(t, lang, "identity.verified"))
		b.check("identity-verified")
		b.press("main button.primary", keyboard)
		next = b.nextOf(t, lang, "payment.title", "review.title")
	}
	if next == msg(t, lang, "payment.title") {
		givePaymentMethod(t, b, lang, keyboard)
	}

	b.waitHeading(msg(t, lang, "review.title"))
	b.check("review")
	discount := field("discount_code")
	b.typeInto(discount, "NOPE", keyboard)
	b.press("main .inline button", keyboard)
	b.Poll("the unknown code's error", func() (string, bool) {
		text := b.errorOf(discount)
		return text, text == msg(t, lang, "discount.not_found")
	})
	b.typeInto(discount, "SPRING10", keyboard)
	b.press("main .inline button", keyboard)
	b.WaitText(".discount-status", upTo(t, lang, "review.discountValid"))
	b.press("main button.accept", keyboard)
	consent := field("consent")
	b.Poll("the consent's error", func() (string, bool) {
		text := b.errorOf(consent)
		return text, text == msg(t, lang, "review.consentMissing")
	})
	b.check("review-consent-missing")
	b.press(consent, keyboard)
	b.press("main button.accept", keyboard)
}
