package apitest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// CustomerOffer is an offer as its customer receives it: the id and the
// shared token of its checkout link.
type CustomerOffer struct {
	ID, Token string
	View      OfferView
}

// NewCustomerOffer creates an offer through the Seller API and reads the
// shared token from its checkout_redirect_url.
func (f OfferFixture) NewCustomerOffer(t *testing.T, reference string, tune ...func(map[string]any)) CustomerOffer {
	t.Helper()
	o := f.CreateOffer(t, OfferPayload(reference, tune...))
	link, err := url.Parse(o.CheckoutURL)
	if err != nil || link.Query().Get("token") == "" {
		t.Fatalf("checkout link %q carries no token", o.CheckoutURL)
	}
	return CustomerOffer{ID: o.ID, Token: link.Query().Get("token"), View: o}
}

// ExchangeForm is the token exchange of an offer's shared token.
func ExchangeForm(o CustomerOffer, scope string) url.Values {
	form := url.Values{
		"grant_type":         {"urn:ietf:params:oauth:grant-type:token-exchange"},
		"subject_token":      {o.Token},
		"subject_token_type": {"urn:tenure:params:oauth:token-type:offer-link"},
		"audience":           {o.ID},
	}
	if scope != "" {
		form.Set("scope", scope)
	}
	return form
}

// Exchange sends a token exchange without client credentials, as a
// Customer's browser does.
func (h *Harness) Exchange(t *testing.T, form url.Values) Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return h.Send(t, req)
}

// CustomerToken exchanges an offer's shared token for a bearer token.
func (h *Harness) CustomerToken(t *testing.T, o CustomerOffer, scope string) string {
	t.Helper()
	return accessToken(t, h.Exchange(t, ExchangeForm(o, scope)), "token exchange")
}

// Customer calls the Customer-Facing API (path relative to /customer).
func (h *Harness) Customer(t *testing.T, method, path, token string, body any) Response {
	t.Helper()
	return h.Do(t, method, "/customer"+path, token, body)
}

// NewID is an id nothing has.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

// CustomerOfferBody is the part of a CustomerOffer the tests read.
type CustomerOfferBody struct {
	ID                      string    `json:"id"`
	Status                  string    `json:"status"`
	UpdatedAt               time.Time `json:"updated_at"`
	OfferLink               string    `json:"offer_link"`
	AllowedBillingCountries []string  `json:"allowed_billing_countries"`
	CustomerHasVATNumber    *bool     `json:"customer_has_vat_number"`
	Email                   string    `json:"email"`
	Customer                *struct {
		FullName string `json:"full_name"`
	} `json:"customer"`
	Lines []struct {
		ID                string `json:"id"`
		ContractTermsList []struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"contract_terms_list"`
		SelectedContractTermsID string `json:"selected_contract_terms_id"`
		Services                []struct {
			ID string `json:"id"`
		} `json:"available_first_party_services"`
		SelectedServiceIDs   []string `json:"selected_first_party_service_ids"`
		RequiresSerialNumber bool     `json:"requires_serial_number"`
	} `json:"lines"`
	PricingOverview struct {
		RentInfo struct {
			TotalRent Money `json:"total_rent"`
		} `json:"rent_info"`
		FirstPayment Money `json:"total_amount_first_payment"`
		Purchase     Money `json:"total_purchase_amount"`
	} `json:"pricing_overview"`
	ShippingAddress *struct {
		City string `json:"city"`
	} `json:"shipping_address"`
}

// CustomerOffer calls a Customer-Facing operation that answers the offer
// and wants 200.
func (h *Harness) CustomerOffer(t *testing.T, method, path, token string, body any) CustomerOfferBody {
	t.Helper()
	resp := h.Customer(t, method, path, token, body)
	if resp.Status != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.Status, resp.Body)
	}
	var o CustomerOfferBody
	resp.Decode(t, &o)
	return o
}

// ValidEndCustomer is complete data of a German GmbH and its buyer.
func ValidEndCustomer() map[string]any {
	return map[string]any{
		"end_customer": map[string]any{
			"type": "de_gmbh", "name": "Buyer GmbH", "company_registration_number": "HRB 12345",
			"vat_number":      "DE123456789",
			"billing_address": map[string]any{"line1": "Invalidenstr. 1", "postal_code": "10115", "city": "Berlin", "country_code": "DE"},
		},
		"end_user": map[string]any{"first_name": "Berta", "last_name": "Buyer", "phone_country_code": "DE", "phone_national_number": "030 1234567"},
	}
}

// ReadyToAccept gives an offer's customer data and answers the offer's
// updated_at to accept it with.
func (f OfferFixture) ReadyToAccept(t *testing.T, o CustomerOffer, token string) time.Time {
	t.Helper()
	if resp := f.Harness.Customer(t, http.MethodPut, "/offers/"+o.ID+"/end-customer-info", token, ValidEndCustomer()); resp.Status != http.StatusOK {
		t.Fatalf("customer data: %d %s", resp.Status, resp.Body)
	}
	return f.Harness.CustomerOffer(t, http.MethodGet, "/offers/"+o.ID, token, nil).UpdatedAt
}

// WithoutSublines leaves out the cable, which production's catalog rules
// find too cheap to finance and which keeps its line from being rented.
func WithoutSublines(p map[string]any) {
	for _, line := range p["lines"].([]map[string]any) {
		delete(line, "sub_lines")
	}
}
