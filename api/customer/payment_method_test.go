package customer_test

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/mandates"
	"github.com/tenurehq/tenure/foundation/keyring"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// paymentMethod is the answer of the payment-method operations.
type paymentMethod struct {
	Type             string     `json:"type"`
	IBAN             string     `json:"iban"`
	AccountHolder    string     `json:"account_holder"`
	MandateReference string     `json:"mandate_reference"`
	SignedAt         *time.Time `json:"signed_at"`
	Creditor         struct {
		Name, Scheme       string
		CreditorIdentifier string `json:"creditor_identifier"`
	} `json:"creditor"`
}

// The IBAN of the tests (Commerzbank's published example) and its digits
// no answer or event may carry.
const (
	testIBAN       = "DE89 3704 0044 0532 0130 00"
	testIBANDigits = "370400440532013000"
)

// lockedBuffer collects what the application logs, from any goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A customer gives a SEPA mandate: bad IBANs, holders and a mandate not
// agreed to are 422 ValidationErrors naming the field and change nothing;
// a good one is stored sealed, answered masked, replaced keeping its
// reference, and opens with the key ring, also after a rotation. Nothing
// the application logs, at debug level, carries an IBAN.
func TestPaymentMethod(t *testing.T) {
	logs := &lockedBuffer{}
	f := apitest.NewLoggedOfferFixture(t, slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	h := f.Harness
	o := f.NewCustomerOffer(t, "mandate-1", apitest.WithoutSublines)
	token := h.CustomerToken(t, o, "")
	path := "/offers/" + o.ID + "/payment-method"

	shown := h.Customer(t, http.MethodGet, "/offers/"+o.ID, token, nil)
	if !strings.Contains(string(shown.Body), `"payment_method_required":false`) ||
		!strings.Contains(string(shown.Body), `"payment_creditor":{"creditor_identifier":"DE98ZZZ09999999999","name":"Tenure Financing GmbH","scheme":"CORE"}`) {
		t.Errorf("the customer's offer: %s", shown.Body)
	}
	if resp := h.Customer(t, http.MethodGet, path, token, nil); resp.Status != http.StatusNotFound {
		t.Errorf("no payment method yet: %d %s", resp.Status, resp.Body)
	}

	body := func(iban, holder string, accepted bool) map[string]any {
		return map[string]any{"type": "sepa_direct_debit", "iban": iban, "account_holder": holder, "mandate_accepted": accepted}
	}
	for _, c := range []struct {
		name, field, message string
		body                 map[string]any
	}{
		{"a country outside SEPA", "iban", "country US is not in the SEPA schemes", body("US64SVBKUS6S3300958879", "Kunde GmbH", true)},
		{"a short IBAN", "iban", "an IBAN of DE has 22 characters, this one 21", body("DE8937040044053201300", "Kunde GmbH", true)},
		{"wrong check digits", "iban", "the check digits do not match", body("DE88370400440532013000", "Kunde GmbH", true)},
		{"no IBAN", "iban", "it is empty", body(" ", "Kunde GmbH", true)},
		{"no holder", "account_holder", "the account holder's name is required", body(testIBAN, "  ", true)},
		{"the mandate not agreed to", "mandate_accepted", "must agree to the SEPA direct debit mandate", body(testIBAN, "Kunde GmbH", false)},
	} {
		resp := h.Customer(t, http.MethodPut, path, token, c.body)
		if resp.Status != http.StatusUnprocessableEntity || validationError(t, resp) == "" ||
			!strings.Contains(string(resp.Body), `"field":"`+c.field+`"`) || !strings.Contains(string(resp.Body), c.message) {
			t.Errorf("%s: %d %s", c.name, resp.Status, resp.Body)
		}
		if strings.Contains(string(resp.Body), "0532013") {
			t.Errorf("%s: the answer repeats the IBAN: %s", c.name, resp.Body)
		}
	}
	if resp := h.Customer(t, http.MethodPut, path, token, map[string]any{"type": "card", "iban": testIBAN, "account_holder": "K", "mandate_accepted": true}); resp.Status != http.StatusBadRequest {
		t.Errorf("another type: %d %s", resp.Status, resp.Body)
	}
	if resp := h.Customer(t, http.MethodGet, path, token, nil); resp.Status != http.StatusNotFound {
		t.Errorf("refused payment methods were stored: %d %s", resp.Status, resp.Body)
	}

	resp := h.Customer(t, http.MethodPut, path, token, body(testIBAN, " Kunde  GmbH ", true))
	var given paymentMethod
	resp.Decode(t, &given)
	if resp.Status != http.StatusOK || given.Type != "sepa_direct_debit" || given.IBAN != "DE89 **** **** **** **** 00" || given.AccountHolder != "Kunde GmbH" ||
		!strings.HasPrefix(given.MandateReference, "TNR") || len(given.MandateReference) != 35 || given.SignedAt != nil ||
		given.Creditor.Name != "Tenure Financing GmbH" || given.Creditor.CreditorIdentifier != "DE98ZZZ09999999999" || given.Creditor.Scheme != "CORE" {
		t.Fatalf("given: %d %s", resp.Status, resp.Body)
	}
	if strings.Contains(string(resp.Body), testIBANDigits) {
		t.Errorf("the answer carries the IBAN: %s", resp.Body)
	}

	// Replaced: another account, the same mandate and reference.
	resp = h.Customer(t, http.MethodPut, path, token, body("NL91ABNA0417164300", "Kunde B.V.", true))
	var replaced paymentMethod
	resp.Decode(t, &replaced)
	if resp.Status != http.StatusOK || replaced.IBAN != "NL91 **** **** **** 00" || replaced.MandateReference != given.MandateReference {
		t.Errorf("replaced: %d %s", resp.Status, resp.Body)
	}
	resp = h.Customer(t, http.MethodGet, path, token, nil)
	if resp.Status != http.StatusOK || !strings.Contains(string(resp.Body), `"iban":"NL91 **** **** **** 00"`) {
		t.Errorf("shown: %d %s", resp.Status, resp.Body)
	}

	stored, err := mandates.ForOffer(t.Context(), h.Store.Queries, uuid.MustParse(o.ID))
	if err != nil {
		t.Fatal(err)
	}
	var sealed []byte
	if err := h.Store.Pool.QueryRow(t.Context(), "SELECT iban_sealed FROM mandates WHERE id = $1", stored.ID).Scan(&sealed); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("0417164300")) {
		t.Error("the IBAN is stored in clear")
	}
	current, err := keyring.Parse(h.Config.Mandates.IBANKeys)
	if err != nil {
		t.Fatal(err)
	}
	if iban, err := mandates.Open(current, stored); err != nil || iban != "NL91ABNA0417164300" {
		t.Errorf("opened %q, %v", iban, err)
	}
	next, err := keyring.GenerateSpec("test-2")
	if err != nil {
		t.Fatal(err)
	}
	rotated, err := keyring.Parse([]string{next, testenv.TestIBANKey})
	if err != nil {
		t.Fatal(err)
	}
	if iban, err := mandates.Open(rotated, stored); err != nil || iban != "NL91ABNA0417164300" {
		t.Errorf("after the rotation the older key opens %q, %v", iban, err)
	}
	newOnly, err := keyring.Parse([]string{next})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mandates.Open(newOnly, stored); !errors.Is(err, keyring.ErrUnknownKey) {
		t.Errorf("without the key that sealed it: %v", err)
	}
	// Resealed with the new key, the old one can go.
	if n, err := mandates.Reseal(t.Context(), h.Store, rotated); err != nil || n != 1 {
		t.Errorf("resealed %d mandates, want 1 (%v)", n, err)
	}
	if n, err := mandates.Reseal(t.Context(), h.Store, rotated); err != nil || n != 0 {
		t.Errorf("resealing again changed %d mandates (%v)", n, err)
	}
	if resealed, err := mandates.ForOffer(t.Context(), h.Store.Queries, uuid.MustParse(o.ID)); err != nil {
		t.Error(err)
	} else if iban, err := mandates.Open(newOnly, resealed); err != nil || iban != "NL91ABNA0417164300" {
		t.Errorf("after resealing the new key alone opens %q, %v", iban, err)
	}

	logged := logs.String()
	if !strings.Contains(logged, "/payment-method") {
		t.Fatalf("the requests were not logged:\n%s", logged)
	}
	for _, digits := range []string{testIBANDigits, "0417164300", "3300958879", "0532 0130"} {
		if strings.Contains(logged, digits) {
			t.Errorf("the log carries an IBAN's digits %s", digits)
		}
	}
}

// An offer whose seller requires a payment method is not accepted without
// one (422 ValidationError naming payment_method); with one, the
// acceptance signs the mandate, and no event carries the IBAN.
func TestAcceptanceNeedsARequiredPaymentMethod(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	if _, err := h.Store.SetSellerPaymentMethodRequired(t.Context(), dbgen.SetSellerPaymentMethodRequiredParams{ID: f.Seller.Seller.ID, Required: true}); err != nil {
		t.Fatal(err)
	}
	o := f.NewCustomerOffer(t, "mandate-2", apitest.WithoutSublines)
	token := h.CustomerToken(t, o, "")
	path := "/offers/" + o.ID
	if shown := h.Customer(t, http.MethodGet, path, token, nil); !strings.Contains(string(shown.Body), `"payment_method_required":true`) {
		t.Errorf("the customer's offer: %s", shown.Body)
	}
	h.CustomerOffer(t, http.MethodPut, path+"/end-customer-info", token, apitest.ValidEndCustomer())
	shipped := h.CustomerOffer(t, http.MethodPut, path+"/update-shipping-address", token,
		map[string]any{"line1": "Lagerweg 2", "postal_code": "20095", "city": "Hamburg", "country_code": "DE"})
	accept := map[string]any{"last_updated_at": shipped.UpdatedAt.Format(time.RFC3339Nano)}

	resp := h.Customer(t, http.MethodPut, path+"/accept", token, accept)
	if resp.Status != http.StatusUnprocessableEntity || validationError(t, resp) == "" || !strings.Contains(string(resp.Body), `"field":"payment_method"`) {
		t.Fatalf("accepted without a payment method: %d %s", resp.Status, resp.Body)
	}
	if again := h.CustomerOffer(t, http.MethodGet, path, token, nil); again.Status != "created" {
		t.Errorf("the refused acceptance moved the offer to %s", again.Status)
	}

	resp = h.Customer(t, http.MethodPut, path+"/payment-method", token,
		map[string]any{"type": "sepa_direct_debit", "iban": testIBAN, "account_holder": "Buyer GmbH", "mandate_accepted": true})
	if resp.Status != http.StatusOK {
		t.Fatalf("payment method: %d %s", resp.Status, resp.Body)
	}
	accepted := h.CustomerOffer(t, http.MethodPut, path+"/accept", token, accept)
	if accepted.Status != "pending_review" {
		t.Fatalf("accepted: %+v", accepted)
	}
	m, err := mandates.ForOffer(t.Context(), h.Store.Queries, uuid.MustParse(o.ID))
	if err != nil {
		t.Fatal(err)
	}
	var acceptedAt time.Time
	if err := h.Store.Pool.QueryRow(t.Context(), "SELECT updated_at FROM offers WHERE id = $1", o.ID).Scan(&acceptedAt); err != nil {
		t.Fatal(err)
	}
	if m.SignedAt == nil || !m.SignedAt.Equal(acceptedAt) {
		t.Errorf("signed at %v, the offer accepted at %s", m.SignedAt, acceptedAt)
	}
	var leaks int
	if err := h.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM events WHERE payload::text LIKE '%' || $1 || '%'", testIBANDigits).Scan(&leaks); err != nil || leaks != 0 {
		t.Errorf("%d events carry the IBAN (%v)", leaks, err)
	}
}
