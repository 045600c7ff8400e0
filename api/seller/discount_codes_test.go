package seller_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

type discountCodeView struct {
	ID          string         `json:"id"`
	Code        string         `json:"code"`
	Active      bool           `json:"active"`
	PercentOff  *int           `json:"percent_off"`
	TimesUsed   int            `json:"times_used"`
	UsageLimit  *int           `json:"usage_limit"`
	Description string         `json:"description"`
	AmountOff   *apitest.Money `json:"amount_off"`
}

func TestDiscountCodesExtension(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")

	resp := h.Do(t, http.MethodPost, "/v1/discount-codes", token, map[string]any{
		"code": "Summer-10", "percent_off": 1000, "usage_limit": 50, "description": "Summer campaign",
		"valid_until": time.Now().Add(30 * 24 * time.Hour).UTC().Format(time.RFC3339),
	})
	var c discountCodeView
	resp.Decode(t, &c)
	if resp.Status != http.StatusCreated || c.Code != "Summer-10" || !c.Active || *c.PercentOff != 1000 || *c.UsageLimit != 50 || c.TimesUsed != 0 {
		t.Fatalf("create: %d %s", resp.Status, resp.Body)
	}
	resp = h.Do(t, http.MethodPost, "/v1/discount-codes", token, map[string]any{"code": "EURO5", "amount_off": map[string]any{"currency": "EUR", "net": 500, "gross": 595}})
	var amount discountCodeView
	resp.Decode(t, &amount)
	if resp.Status != http.StatusCreated || amount.AmountOff == nil || amount.AmountOff.Gross != 595 || amount.PercentOff != nil {
		t.Errorf("amount code: %d %s", resp.Status, resp.Body)
	}

	resp = h.Do(t, http.MethodPost, "/v1/discount-codes", token, map[string]any{"code": "SUMMER-10", "percent_off": 500})
	if resp.Status != http.StatusUnprocessableEntity || resp.ErrorName(t) != "DuplicateDiscountCode" {
		t.Errorf("a duplicate in another case: %d %s", resp.Status, resp.Body)
	}
	for field, body := range map[string]map[string]any{
		"code":                {"code": "x", "percent_off": 10},
		"percent_off":         {"code": "NONE"},
		"amount_off.currency": {"code": "USD", "amount_off": map[string]any{"currency": "USD", "net": 500, "gross": 500}},
		"valid_until":         {"code": "PAST", "percent_off": 10, "valid_until": "2001-01-01T00:00:00Z"},
		"usage_limit":         {"code": "ZERO", "percent_off": 10, "usage_limit": 0},
	} {
		resp := h.Do(t, http.MethodPost, "/v1/discount-codes", token, body)
		if resp.Status != http.StatusBadRequest || !strings.Contains(resp.APIError(t)["message"].(string), field) {
			t.Errorf("bad %s: %d %s", field, resp.Status, resp.Body)
		}
	}

	var page struct {
		Codes      []discountCodeView `json:"discount_codes"`
		Pagination struct {
			TotalCount int `json:"total_count"`
			PageSize   int `json:"page_size"`
		} `json:"pagination"`
	}
	h.Do(t, http.MethodGet, "/v1/discount-codes?limit=1&page=1", token, nil).Decode(t, &page)
	if page.Pagination.TotalCount != 2 || page.Pagination.PageSize != 1 || len(page.Codes) != 1 || page.Codes[0].Code != "EURO5" {
		t.Errorf("second page of one: %+v", page)
	}
	resp = h.Do(t, http.MethodPost, "/v1/discount-codes/"+c.ID+"/deactivate", token, nil)
	var deactivated discountCodeView
	resp.Decode(t, &deactivated)
	if resp.Status != http.StatusOK || deactivated.Active {
		t.Errorf("deactivate: %d %s", resp.Status, resp.Body)
	}
	h.Do(t, http.MethodGet, "/v1/discount-codes", token, nil).Decode(t, &page)
	if page.Pagination.TotalCount != 1 {
		t.Errorf("deactivated codes are left out by default: %+v", page)
	}
	h.Do(t, http.MethodGet, "/v1/discount-codes?include_inactive=true", token, nil).Decode(t, &page)
	if page.Pagination.TotalCount != 2 {
		t.Errorf("and listed on request: %+v", page)
	}
	if resp := h.Do(t, http.MethodGet, "/v1/discount-codes/"+c.ID, token, nil); resp.Status != http.StatusOK {
		t.Errorf("get: %d %s", resp.Status, resp.Body)
	}

	other := h.Token(t, h.Seller(t), "client")
	for _, target := range []string{"/v1/discount-codes/" + c.ID, "/v1/discount-codes/not-a-uuid"} {
		if resp := h.Do(t, http.MethodGet, target, other, nil); resp.Status != http.StatusNotFound {
			t.Errorf("%s for another seller: %d %s", target, resp.Status, resp.Body)
		}
	}
	if resp := h.Do(t, http.MethodPost, "/v1/discount-codes/"+c.ID+"/deactivate", other, nil); resp.Status != http.StatusNotFound {
		t.Errorf("deactivating another seller's code: %d %s", resp.Status, resp.Body)
	}
	readOnly := h.Token(t, s, "seller-discount:read")
	if resp := h.Do(t, http.MethodPost, "/v1/discount-codes", readOnly, map[string]any{"code": "NEW", "percent_off": 10}); resp.Status != http.StatusForbidden {
		t.Errorf("creating with read access: %d %s", resp.Status, resp.Body)
	}
}

func TestSellerProfileExtension(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")

	type profile struct {
		ID                string            `json:"id"`
		Name              string            `json:"name"`
		PrettyName        string            `json:"pretty_name"`
		LogoURL           string            `json:"logo_url"`
		Email             string            `json:"email"`
		Address           map[string]string `json:"address"`
		ContractualEntity string            `json:"contractual_entity"`
		BillingCountries  []string          `json:"billing_countries"`
		HideBuyNow        bool              `json:"capability_hide_buy_now"`
		Terms             []map[string]any  `json:"terms_and_conditions"`
	}
	var p profile
	resp := h.Do(t, http.MethodGet, "/v1/seller-profile", token, nil)
	resp.Decode(t, &p)
	if resp.Status != http.StatusOK || p.ID != s.Seller.ID.String() || p.ContractualEntity != "tenure" || len(p.BillingCountries) != 9 || p.Terms == nil {
		t.Fatalf("default profile: %d %s", resp.Status, resp.Body)
	}
	resp = h.Do(t, http.MethodPatch, "/v1/seller-profile", token, map[string]any{
		"pretty_name": "Shop", "email": "hello@shop.example", "logo_url": "https://cdn.shop.example/logo.svg",
		"address": map[string]any{"line1": "Main street 1", "postal_code": "10115", "city": "Berlin", "country_code": "DE"},
	})
	resp.Decode(t, &p)
	if resp.Status != http.StatusOK || p.PrettyName != "Shop" || p.Name != s.Seller.Name || p.Address["city"] != "Berlin" || p.LogoURL == "" {
		t.Errorf("patch: %d %s", resp.Status, resp.Body)
	}
	resp = h.Do(t, http.MethodPatch, "/v1/seller-profile", token, map[string]any{"email": ""})
	resp.Decode(t, &p)
	if p.Email != "" || p.PrettyName != "Shop" {
		t.Errorf("only the fields sent change: %s", resp.Body)
	}

	resp = h.Do(t, http.MethodPatch, "/v1/seller-profile", token, map[string]any{
		"pretty_name": "Renamed", "logo_url": "http://cdn.shop.example/logo.svg", "email": "not an address",
		"address": map[string]any{"country_code": "de"},
	})
	msg, _ := resp.APIError(t)["message"].(string)
	for _, field := range []string{"logo_url", "email", "address.country_code"} {
		if resp.Status != http.StatusBadRequest || !strings.Contains(msg, field) {
			t.Errorf("a refusal names %s: %d %s", field, resp.Status, resp.Body)
		}
	}
	for name, body := range map[string]map[string]any{
		"operator's entity":       {"contractual_entity": "other"},
		"operator's capabilities": {"capability_hide_buy_now": true},
		"operator's name":         {"name": "New legal name"},
	} {
		if resp := h.Do(t, http.MethodPatch, "/v1/seller-profile", token, body); resp.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, resp.Status, resp.Body)
		}
	}
	h.Do(t, http.MethodGet, "/v1/seller-profile", token, nil).Decode(t, &p)
	if p.PrettyName != "Shop" || p.HideBuyNow || p.ContractualEntity != "tenure" {
		t.Errorf("refused changes change nothing: %+v", p)
	}
	if resp := h.Do(t, http.MethodPatch, "/v1/seller-profile", h.Token(t, s, "seller-branding:read"), map[string]any{"pretty_name": "x"}); resp.Status != http.StatusForbidden {
		t.Errorf("editing with read access: %d %s", resp.Status, resp.Body)
	}
}
