package api_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// customerOfferBody is the part of a CustomerOffer the tests read.
type customerOfferBody struct {
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
			TotalRent money `json:"total_rent"`
		} `json:"rent_info"`
		FirstPayment money `json:"total_amount_first_payment"`
		Purchase     money `json:"total_purchase_amount"`
	} `json:"pricing_overview"`
	ShippingAddress *struct {
		City string `json:"city"`
	} `json:"shipping_address"`
}

func (h *harness) customerOffer(t *testing.T, method, path, token string, body any) customerOfferBody {
	t.Helper()
	resp := h.customer(t, method, path, token, body)
	if resp.status != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.status, resp.body)
	}
	var o customerOfferBody
	resp.decode(t, &o)
	return o
}

// validationError is the message of a 422 ValidationError, "" when the
// body is none.
func (r response) validationError(t *testing.T) string {
	t.Helper()
	var v struct {
		Name    string `json:"name"`
		Message string `json:"message"`
		Errors  []struct {
			Code, Field, Message string
		} `json:"errors"`
	}
	r.decode(t, &v)
	if v.Name != "ValidationError" || len(v.Errors) == 0 {
		return ""
	}
	return v.Message
}

// validEndCustomer is complete data of a German GmbH and its buyer.
func validEndCustomer() map[string]any {
	return map[string]any{
		"end_customer": map[string]any{
			"type": "de_gmbh", "name": "Buyer GmbH", "company_registration_number": "HRB 12345",
			"vat_number":      "DE123456789",
			"billing_address": map[string]any{"line1": "Invalidenstr. 1", "postal_code": "10115", "city": "Berlin", "country_code": "DE"},
		},
		"end_user": map[string]any{"first_name": "Berta", "last_name": "Buyer", "phone_country_code": "DE", "phone_national_number": "030 1234567"},
	}
}

// The customer's whole checkout through the API: read, preview, choose,
// complete the data, ship, accept; each change refreshes updated_at, and
// once accepted the customer's token no longer opens the offer.
func TestCustomerCheckout(t *testing.T) {
	f := newCustomerFixture(t)
	h := f.h
	o := f.newCustomerOffer(t, "checkout-1", withoutSublines)
	token := h.customerToken(t, o, "")
	path := "/offers/" + o.id

	shown := h.customerOffer(t, http.MethodGet, path, token, nil)
	line := shown.Lines[0]
	if shown.Status != "created" || shown.OfferLink == "" || len(shown.AllowedBillingCountries) == 0 ||
		len(line.ContractTermsList) < 2 || line.SelectedContractTermsID == "" || !line.RequiresSerialNumber || len(line.Services) == 0 {
		t.Fatalf("shown offer: %+v", shown)
	}
	rent24 := line.ID + "-rent-24"
	service := line.Services[0].ID

	anon := h.customerOffer(t, http.MethodGet, path+"/anonymized?token="+o.token, "", nil)
	if anon.Email != "buyer@example.com" || anon.CustomerHasVATNumber == nil || !*anon.CustomerHasVATNumber || anon.Customer != nil {
		t.Errorf("anonymised offer: %+v", anon)
	}

	choice := map[string]any{"lines": []map[string]any{{"offer_line_id": line.ID, "selected_contract_terms_id": rent24, "selected_services": []string{service}}}}
	preview := h.customerOffer(t, http.MethodPut, path+"/preview-customize-terms-services?token="+o.token, "", choice)
	if preview.Lines[0].SelectedContractTermsID != rent24 || preview.PricingOverview.RentInfo.TotalRent.Net <= shown.PricingOverview.RentInfo.TotalRent.Net {
		t.Errorf("preview: %+v", preview)
	}
	if again := h.customerOffer(t, http.MethodGet, path, token, nil); again.Lines[0].SelectedContractTermsID != line.SelectedContractTermsID || !again.UpdatedAt.Equal(shown.UpdatedAt) {
		t.Errorf("the preview stored something: %+v", again)
	}

	resp := h.customer(t, http.MethodPut, path+"/customize-terms-services", token,
		map[string]any{"lines": []map[string]any{{"offer_line_id": line.ID, "selected_contract_terms_id": line.ID + "-rent-7"}}})
	if resp.status != http.StatusUnprocessableEntity || resp.errorName(t) != "Unprocessable" || !strings.Contains(string(resp.body), line.ID) {
		t.Errorf("a term the line does not offer: %d %s", resp.status, resp.body)
	}
	chosen := h.customerOffer(t, http.MethodPut, path+"/customize-terms-services", token, choice)
	if chosen.Lines[0].SelectedContractTermsID != rent24 || len(chosen.Lines[0].SelectedServiceIDs) != 1 ||
		chosen.PricingOverview.RentInfo.TotalRent != preview.PricingOverview.RentInfo.TotalRent || !chosen.UpdatedAt.After(shown.UpdatedAt) {
		t.Errorf("chosen: %+v", chosen)
	}

	bad := validEndCustomer()
	bad["end_customer"].(map[string]any)["vat_number"] = "DE12"
	bad["end_user"].(map[string]any)["phone_national_number"] = "12"
	delete(bad["end_customer"].(map[string]any), "name")
	resp = h.customer(t, http.MethodPut, path+"/end-customer-info", token, bad)
	if resp.status != http.StatusUnprocessableEntity || resp.validationError(t) == "" {
		t.Fatalf("bad customer data: %d %s", resp.status, resp.body)
	}
	for _, field := range []string{"end_customer.vat_number", "end_user.phone_national_number", "end_customer.name"} {
		if !strings.Contains(string(resp.body), `"field":"`+field+`"`) {
			t.Errorf("the ValidationError does not name %s: %s", field, resp.body)
		}
	}
	resp = h.customer(t, http.MethodPut, path+"/end-customer-info", token, validEndCustomer())
	if resp.status != http.StatusOK || !strings.Contains(string(resp.body), `"number":"+49301234567"`) {
		t.Fatalf("customer data: %d %s", resp.status, resp.body)
	}
	seller := f.h.do(t, http.MethodGet, "/v1/offers/"+o.id, f.token, nil)
	if !strings.Contains(string(seller.body), "Invalidenstr. 1") || !strings.Contains(string(seller.body), `"full_name":"Berta Buyer"`) ||
		!strings.Contains(string(seller.body), `"selected_contract_type":"rent"`) {
		t.Errorf("the seller does not see the customer's data: %s", seller.body)
	}

	shipped := h.customerOffer(t, http.MethodPut, path+"/update-shipping-address", token,
		map[string]any{"line1": "Lagerweg 2", "postal_code": "20095", "city": "Hamburg", "country_code": "DE", "recipient_name": "Goods In"})
	if shipped.ShippingAddress == nil || shipped.ShippingAddress.City != "Hamburg" {
		t.Errorf("shipping address: %+v", shipped.ShippingAddress)
	}

	resp = h.customer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": chosen.UpdatedAt.Format(time.RFC3339Nano)})
	if resp.status != http.StatusUnprocessableEntity || resp.errorName(t) != "OutOfDate" {
		t.Errorf("a stale acceptance: %d %s", resp.status, resp.body)
	}
	accepted := h.customerOffer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": shipped.UpdatedAt.Format(time.RFC3339Nano)})
	if accepted.Status != "pending_review" {
		t.Errorf("accepted: %+v", accepted)
	}
	if types := f.eventTypes(t, o.id); !strings.Contains(strings.Join(types, ","), "offer.pending_review") {
		t.Errorf("events: %v", types)
	}
	// Under review the token opens nothing (customer_reach_test.go walks
	// every operation).
	resp = h.customer(t, http.MethodPut, path+"/customize-terms-services", token, choice)
	if resp.status != http.StatusForbidden || !strings.HasPrefix(string(resp.body), `"OfferNotOpen: `) {
		t.Errorf("changing an offer under review: %d %s", resp.status, resp.body)
	}
	resp = h.customer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": accepted.UpdatedAt.Format(time.RFC3339Nano)})
	if resp.status != http.StatusForbidden || !strings.HasPrefix(string(resp.body), `"OfferNotOpen: `) {
		t.Errorf("accepting twice: %d %s", resp.status, resp.body)
	}
	resp = h.customer(t, http.MethodPut, path+"/preview-customize-terms-services", "", choice)
	if resp.status != http.StatusUnauthorized || !strings.Contains(string(resp.body), "token") {
		t.Errorf("preview without any credentials: %d %s", resp.status, resp.body)
	}
}

// Accepting needs complete data and a shipping address, named in a
// ValidationError, and a billing country the seller's entity serves.
func TestCustomerAcceptPrerequisites(t *testing.T) {
	f := newCustomerFixture(t)
	h := f.h
	o := f.newCustomerOffer(t, "prereq-1", func(p map[string]any) {
		delete(p, "shipping_address")
		p["sales_channel"] = "telesales"
	})
	token := h.customerToken(t, o, "")
	path := "/offers/" + o.id
	shown := h.customerOffer(t, http.MethodGet, path, token, nil)
	resp := h.customer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": shown.UpdatedAt.Format(time.RFC3339Nano)})
	if resp.status != http.StatusUnprocessableEntity || resp.validationError(t) == "" ||
		!strings.Contains(string(resp.body), `"field":"shipping_address"`) || !strings.Contains(string(resp.body), `"field":"end_customer.type"`) {
		t.Errorf("accepting without data: %d %s", resp.status, resp.body)
	}
	h.customerOffer(t, http.MethodPut, path+"/update-shipping-address", token,
		map[string]any{"line1": "Rue 1", "postal_code": "1000", "city": "Bruxelles", "country_code": "BE"})
	resp = h.customer(t, http.MethodPut, path+"/end-customer-info", token, validEndCustomer())
	if resp.status != http.StatusOK {
		t.Fatalf("customer data: %d %s", resp.status, resp.body)
	}
	// The operator narrows the seller's entity after the data were stored.
	if _, err := h.store.Pool.Exec(t.Context(), "UPDATE sellers SET contractual_entity = 'benelux' WHERE id = $1", f.seller.Seller.ID); err != nil {
		t.Fatal(err)
	}
	h.cfg.Sellers.ContractualEntities["benelux"] = []string{"BE", "NL"}
	shown = h.customerOffer(t, http.MethodGet, path, token, nil)
	resp = h.customer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": shown.UpdatedAt.Format(time.RFC3339Nano)})
	if resp.status != http.StatusConflict || resp.errorName(t) != "IncompatibleContractualEntity" {
		t.Errorf("a billing country the entity does not serve: %d %s", resp.status, resp.body)
	}
	if got := f.getOffer(t, o.id).Status; got != "created" {
		t.Errorf("refused acceptances changed the offer: %s", got)
	}
}

// readyToAccept gives an offer's customer data and answers the offer's
// updated_at to accept it with.
func (f offerFixture) readyToAccept(t *testing.T, o customerOffer, token string) time.Time {
	t.Helper()
	if resp := f.h.customer(t, http.MethodPut, "/offers/"+o.id+"/end-customer-info", token, validEndCustomer()); resp.status != http.StatusOK {
		t.Fatalf("customer data: %d %s", resp.status, resp.body)
	}
	return f.h.customerOffer(t, http.MethodGet, "/offers/"+o.id, token, nil).UpdatedAt
}

// Two customers race for the last use of a discount code: one acceptance
// applies it, the other is refused with exhausted and leaves its offer
// open; the code counts once.
func TestCustomerAcceptRacingForADiscount(t *testing.T) {
	f := newCustomerFixture(t)
	h := f.h
	f.createDiscountCode(t, map[string]any{"code": "LAST-ONE", "percent_off": 1000, "usage_limit": 1})
	type racer struct {
		o     customerOffer
		token string
		at    time.Time
		resp  response
	}
	racers := make([]*racer, 2)
	for i := range racers {
		o := f.newCustomerOffer(t, "race-"+string(rune('a'+i)), withoutSublines)
		token := h.customerToken(t, o, "")
		racers[i] = &racer{o: o, token: token, at: f.readyToAccept(t, o, token)}
	}
	var wg sync.WaitGroup
	for _, r := range racers {
		wg.Go(func() {
			r.resp = h.customer(t, http.MethodPut, "/offers/"+r.o.id+"/accept", r.token,
				map[string]any{"last_updated_at": r.at.Format(time.RFC3339Nano), "discount_code": "last-one"})
		})
	}
	wg.Wait()
	var won, lost *racer
	for _, r := range racers {
		switch r.resp.status {
		case http.StatusOK:
			won = r
		case http.StatusUnprocessableEntity:
			lost = r
		}
	}
	if won == nil || lost == nil {
		t.Fatalf("not one winner: %d %s / %d %s", racers[0].resp.status, racers[0].resp.body, racers[1].resp.status, racers[1].resp.body)
	}
	if !strings.Contains(string(won.resp.body), `"applied_discount":{"amount"`) || !strings.Contains(string(won.resp.body), `"code":"LAST-ONE"`) {
		t.Errorf("the winner's offer shows no discount: %s", won.resp.body)
	}
	if !strings.Contains(string(lost.resp.body), `"name":"InvalidDiscountCodeError"`) || !strings.Contains(string(lost.resp.body), `"type":"exhausted"`) {
		t.Errorf("the loser is not told the code is used up: %s", lost.resp.body)
	}
	if got := f.getOffer(t, lost.o.id).Status; got != "created" {
		t.Errorf("the refused acceptance moved its offer to %s", got)
	}
	if n := h.count(t, "SELECT times_used FROM discount_codes WHERE code = 'LAST-ONE'"); n != 1 {
		t.Errorf("the code counted %d uses", n)
	}
}
