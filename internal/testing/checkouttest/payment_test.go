package checkouttest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// The IBANs the customer types: one with wrong check digits, then a good
// one (Commerzbank's published example).
const (
	mistypedIBAN = "DE88 3704 0044 0532 0130 00"
	testIBAN     = "DE89 3704 0044 0532 0130 00"
)

// givePaymentMethod completes the payment step: the mandate's text names
// the creditor, its identifier and the refund right of SEPA Core; a
// mistyped IBAN is named next to its field; the good one is saved and the
// step goes on to the review.
func givePaymentMethod(t *testing.T, b *browser, lang string, keyboard bool) {
	t.Helper()
	b.waitHeading(msg(t, lang, "payment.title"))
	text := eval[string](b, `document.querySelector('main .mandate').textContent`)
	for _, want := range []string{
		msg(t, lang, "payment.mandate.CORE"), "Tenure Financing GmbH", "DE98ZZZ09999999999",
		msg(t, lang, "payment.referenceLater"), msg(t, lang, "payment.text.CORE", "creditor", "Tenure Financing GmbH"),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the mandate's text lacks %q: %s", want, text)
		}
	}
	b.check("payment")
	b.typeInto(field("account_holder"), "Buyer Systems GmbH", keyboard)
	b.typeInto(field("iban"), mistypedIBAN, keyboard)
	b.press(field("mandate_accepted"), keyboard)
	b.press("main button[type=submit]", keyboard)
	said := b.Poll("the IBAN's error next to it", func() (string, bool) {
		text := b.errorOf(field("iban"))
		return text, text != ""
	})
	if lang != "en" && said != msg(t, lang, "errors.invalid_format") {
		t.Errorf("the IBAN's error says %q, want %q", said, msg(t, lang, "errors.invalid_format"))
	}
	b.check("payment-mistake")
	b.typeInto(field("iban"), testIBAN, keyboard)
	b.press("main button[type=submit]", keyboard)
}

// TestCheckoutWithAMandate completes a checkout whose seller requires a
// payment method, on a 360 px phone in German with the keyboard: the
// payment step shows the mandate, takes the IBAN, and the acceptance signs
// the mandate; the customer's answers show the IBAN masked only.
func TestCheckoutWithAMandate(t *testing.T) {
	s := newStack(t)
	s.call(t, http.MethodPost, "/v1/discount-codes", map[string]any{"code": "SPRING10", "percent_off": 1000}, http.StatusCreated, nil)
	if _, err := s.store.SetSellerPaymentMethodRequired(t.Context(), dbgen.SetSellerPaymentMethodRequiredParams{ID: s.sellerID, Required: true}); err != nil {
		t.Fatal(err)
	}
	o := s.createOffer(t, "SO-MANDATE", time.Now().Add(72*time.Hour))
	b := newBrowser(t, phoneGerman)
	walkToAcceptance(t, b, o, "de", true)
	b.waitHeading(msg(t, "de", "status.pending.heading"))

	m, err := s.store.GetMandateByOffer(t.Context(), uuid.MustParse(o.ID))
	if err != nil {
		t.Fatalf("no mandate was stored: %v", err)
	}
	if m.IbanMasked != "DE89 **** **** **** **** 00" || m.AccountHolder != "Buyer Systems GmbH" || m.SignedAt == nil || m.Scheme != "CORE" {
		t.Errorf("the mandate: %s, %s, signed %v, %s", m.IbanMasked, m.AccountHolder, m.SignedAt, m.Scheme)
	}
	read := eval[[]string](b, `performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('/payment-method'))`)
	if len(read) == 0 {
		t.Error("the page never called the payment-method operations")
	}
}
