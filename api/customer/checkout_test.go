package customer_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// validationError is the message of a 422 ValidationError, "" when the
// body is none.
func validationError(t *testing.T, r apitest.Response) string {
	t.Helper()
	var v struct {
		Name    string `json:"name"`
		Message string `json:"message"`
		Errors  []struct {
			Code, Field, Message string
		} `json:"errors"`
	}
	r.Decode(t, &v)
	if v.Name != "ValidationError" || len(v.Errors) == 0 {
		return ""
	}
	return v.Message
}

// The customer's whole checkout through the API: read, preview, choose,
// complete the data, ship, accept; each change refreshes updated_at, and
// once accepted the customer's token no longer opens the offer.
func TestCustomerCheckout(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "checkout-1", apitest.WithoutSublines)
	token := h.CustomerToken(t, o, "")
	path := "/offers/" + o.ID

	shown := h.CustomerOffer(t, http.MethodGet, path, token, nil)
	line := shown.Lines[0]
	if shown.Status != "created" || shown.OfferLink == "" || len(shown.AllowedBillingCountries) == 0 ||
		len(line.ContractTermsList) < 2 || line.SelectedContractTermsID == "" || !line.RequiresSerialNumber || len(line.Services) == 0 {
		t.Fatalf("shown offer: %+v", shown)
	}
	rent24 := line.ID + "-rent-24"
	service := line.Services[0].ID

	anon := h.CustomerOffer(t, http.MethodGet, path+"/anonymized?token="+o.Token, "", nil)
	if anon.Email != "buyer@example.com" || anon.CustomerHasVATNumber == nil || !*anon.CustomerHasVATNumber || anon.Customer != nil {
		t.Errorf("anonymised offer: %+v", anon)
	}

	choice := map[string]any{"lines": []map[string]any{{"offer_line_id": line.ID, "selected_contract_terms_id": rent24, "selected_services": []string{service}}}}
	preview := h.CustomerOffer(t, http.MethodPut, path+"/preview-customize-terms-services?token="+o.Token, "", choice)
	if preview.Lines[0].SelectedContractTermsID != rent24 || preview.PricingOverview.RentInfo.TotalRent.Net <= shown.PricingOverview.RentInfo.TotalRent.Net {
		t.Errorf("preview: %+v", preview)
	}
	if again := h.CustomerOffer(t, http.MethodGet, path, token, nil); again.Lines[0].SelectedContractTermsID != line.SelectedContractTermsID || !again.UpdatedAt.Equal(shown.UpdatedAt) {
		t.Errorf("the preview stored something: %+v", again)
	}

	resp := h.Customer(t, http.MethodPut, path+"/customize-terms-services", token,
		map[string]any{"lines": []map[string]any{{"offer_line_id": line.ID, "selected_contract_terms_id": line.ID + "-rent-7"}}})
	if resp.Status != http.StatusUnprocessableEntity || resp.ErrorName(t) != "Unprocessable" || !strings.Contains(string(resp.Body), line.ID) {
		t.Errorf("a term the line does not offer: %d %s", resp.Status, resp.Body)
	}
	chosen := h.CustomerOffer(t, http.MethodPut, path+"/customize-terms-services", token, choice)
	if chosen.Lines[0].SelectedContractTermsID != rent24 || len(chosen.Lines[0].SelectedServiceIDs) != 1 ||
		chosen.PricingOverview.RentInfo.TotalRent != preview.PricingOverview.RentInfo.TotalRent || !chosen.UpdatedAt.After(shown.UpdatedAt) {
		t.Errorf("chosen: %+v", chosen)
	}

	bad := apitest.ValidEndCustomer()
	bad["end_customer"].(map[string]any)["vat_number"] = "DE12"
	bad["end_user"].(map[string]any)["phone_national_number"] = "12"
	delete(bad["end_customer"].(map[string]any), "name")
	resp = h.Customer(t, http.MethodPut, path+"/end-customer-info", token, bad)
	if resp.Status != http.StatusUnprocessableEntity || validationError(t, resp) == "" {
		t.Fatalf("bad customer data: %d %s", resp.Status, resp.Body)
	}
	for _, field := range []string{"end_customer.vat_number", "end_user.phone_national_number", "end_customer.name"} {
		if !strings.Contains(string(resp.Body), `"field":"`+field+`"`) {
			t.Errorf("the ValidationError does not name %s: %s", field, resp.Body)
		}
	}
	resp = h.Customer(t, http.MethodPut, path+"/end-customer-info", token, apitest.ValidEndCustomer())
	if resp.Status != http.StatusOK || !strings.Contains(string(resp.Body), `"number":"+49301234567"`) {
		t.Fatalf("customer data: %d %s", resp.Status, resp.Body)
	}
	seller := f.Harness.Do(t, http.MethodGet, "/v1/offers/"+o.ID, f.Token, nil)
	if !strings.Contains(string(seller.Body), "Invalidenstr. 1") || !strings.Contains(string(seller.Body), `"full_name":"Berta Buyer"`) ||
		!strings.Contains(string(seller.Body), `"selected_contract_type":"rent"`) {
		t.Errorf("the seller does not see the customer's data: %s", seller.Body)
	}

	shipped := h.CustomerOffer(t, http.MethodPut, path+"/update-shipping-address", token,
		map[string]any{"line1": "Lagerweg 2", "postal_code": "20095", "city": "Hamburg", "country_code": "DE", "recipient_name": "Goods In"})
	if shipped.ShippingAddress == nil || shipped.ShippingAddress.City != "Hamburg" {
		t.Errorf("shipping address: %+v", shipped.ShippingAddress)
	}

	resp = h.Customer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": chosen.UpdatedAt.Format(time.RFC3339Nano)})
	if resp.Status != http.StatusUnprocessableEntity || resp.ErrorName(t) != "OutOfDate" {
		t.Errorf("a stale acceptance: %d %s", resp.Status, resp.Body)
	}
	accepted := h.CustomerOffer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": shipped.UpdatedAt.Format(time.RFC3339Nano)})
	if accepted.Status != "pending_review" {
		t.Errorf("accepted: %+v", accepted)
	}
	if types := f.EventTypes(t, o.ID); !strings.Contains(strings.Join(types, ","), "offer.pending_review") {
		t.Errorf("events: %v", types)
	}
	// Under review the token opens nothing (customer_reach_test.go walks
	// every operation).
	resp = h.Customer(t, http.MethodPut, path+"/customize-terms-services", token, choice)
	if resp.Status != http.StatusForbidden || !strings.HasPrefix(string(resp.Body), `"OfferNotOpen: `) {
		t.Errorf("changing an offer under review: %d %s", resp.Status, resp.Body)
	}
	resp = h.Customer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": accepted.UpdatedAt.Format(time.RFC3339Nano)})
	if resp.Status != http.StatusForbidden || !strings.HasPrefix(string(resp.Body), `"OfferNotOpen: `) {
		t.Errorf("accepting twice: %d %s", resp.Status, resp.Body)
	}
	resp = h.Customer(t, http.MethodPut, path+"/preview-customize-terms-services", "", choice)
	if resp.Status != http.StatusUnauthorized || !strings.Contains(string(resp.Body), "token") {
		t.Errorf("preview without any credentials: %d %s", resp.Status, resp.Body)
	}
}

// Accepting needs complete data and a shipping address, named in a
// ValidationError, and a billing country the seller's entity serves.
func TestCustomerAcceptPrerequisites(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "prereq-1", func(p map[string]any) {
		delete(p, "shipping_address")
		p["sales_channel"] = "telesales"
	})
	token := h.CustomerToken(t, o, "")
	path := "/offers/" + o.ID
	shown := h.CustomerOffer(t, http.MethodGet, path, token, nil)
	resp := h.Customer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": shown.UpdatedAt.Format(time.RFC3339Nano)})
	if resp.Status != http.StatusUnprocessableEntity || validationError(t, resp) == "" ||
		!strings.Contains(string(resp.Body), `"field":"shipping_address"`) || !strings.Contains(string(resp.Body), `"field":"end_customer.type"`) {
		t.Errorf("accepting without data: %d %s", resp.Status, resp.Body)
	}
	h.CustomerOffer(t, http.MethodPut, path+"/update-shipping-address", token,
		map[string]any{"line1": "Rue 1", "postal_code": "1000", "city": "Bruxelles", "country_code": "BE"})
	resp = h.Customer(t, http.MethodPut, path+"/end-customer-info", token, apitest.ValidEndCustomer())
	if resp.Status != http.StatusOK {
		t.Fatalf("customer data: %d %s", resp.Status, resp.Body)
	}
	// The operator narrows the seller's entity after the data were stored.
	if _, err := h.Store.Pool.Exec(t.Context(), "UPDATE sellers SET contractual_entity = 'benelux' WHERE id = $1", f.Seller.Seller.ID); err != nil {
		t.Fatal(err)
	}
	h.Config.Sellers.ContractualEntities["benelux"] = []string{"BE", "NL"}
	shown = h.CustomerOffer(t, http.MethodGet, path, token, nil)
	resp = h.Customer(t, http.MethodPut, path+"/accept", token, map[string]any{"last_updated_at": shown.UpdatedAt.Format(time.RFC3339Nano)})
	if resp.Status != http.StatusConflict || resp.ErrorName(t) != "IncompatibleContractualEntity" {
		t.Errorf("a billing country the entity does not serve: %d %s", resp.Status, resp.Body)
	}
	if got := f.GetOffer(t, o.ID).Status; got != "created" {
		t.Errorf("refused acceptances changed the offer: %s", got)
	}
}

// Two customers race for the last use of a discount code: one acceptance
// applies it, the other is refused with exhausted and leaves its offer
// open; the code counts once.
func TestCustomerAcceptRacingForADiscount(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	f.CreateDiscountCode(t, map[string]any{"code": "LAST-ONE", "percent_off": 1000, "usage_limit": 1})
	type racer struct {
		o     apitest.CustomerOffer
		token string
		at    time.Time
		resp  apitest.Response
	}
	racers := make([]*racer, 2)
	for i := range racers {
		o := f.NewCustomerOffer(t, "race-"+string(rune('a'+i)), apitest.WithoutSublines)
		token := h.CustomerToken(t, o, "")
		racers[i] = &racer{o: o, token: token, at: f.ReadyToAccept(t, o, token)}
	}
	var wg sync.WaitGroup
	for _, r := range racers {
		wg.Go(func() {
			r.resp = h.Customer(t, http.MethodPut, "/offers/"+r.o.ID+"/accept", r.token,
				map[string]any{"last_updated_at": r.at.Format(time.RFC3339Nano), "discount_code": "last-one"})
		})
	}
	wg.Wait()
	var won, lost *racer
	for _, r := range racers {
		switch r.resp.Status {
		case http.StatusOK:
			won = r
		case http.StatusUnprocessableEntity:
			lost = r
		}
	}
	if won == nil || lost == nil {
		t.Fatalf("not one winner: %d %s / %d %s", racers[0].resp.Status, racers[0].resp.Body, racers[1].resp.Status, racers[1].resp.Body)
	}
	if !strings.Contains(string(won.resp.Body), `"applied_discount":{"amount"`) || !strings.Contains(string(won.resp.Body), `"code":"LAST-ONE"`) {
		t.Errorf("the winner's offer shows no discount: %s", won.resp.Body)
	}
	if !strings.Contains(string(lost.resp.Body), `"name":"InvalidDiscountCodeError"`) || !strings.Contains(string(lost.resp.Body), `"type":"exhausted"`) {
		t.Errorf("the loser is not told the code is used up: %s", lost.resp.Body)
	}
	if got := f.GetOffer(t, lost.o.ID).Status; got != "created" {
		t.Errorf("the refused acceptance moved its offer to %s", got)
	}
	if n := h.Count(t, "SELECT times_used FROM discount_codes WHERE code = 'LAST-ONE'"); n != 1 {
		t.Errorf("the code counted %d uses", n)
	}
}
