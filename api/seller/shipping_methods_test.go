package seller_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

type shippingMethod struct {
	ID              string `json:"id"`
	IsInStorePickup bool   `json:"is_in_store_pickup"`
	Name            string `json:"name"`
	Reference       string `json:"seller_shipping_method_reference"`
	Supported       bool   `json:"supported"`
}

type shippingMethodPage struct {
	Data       []shippingMethod `json:"data"`
	Pagination struct {
		Page    int  `json:"page"`
		HasMore bool `json:"has_more"`
	} `json:"pagination"`
}

func TestCreateAndListShippingMethods(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")

	resp := h.Do(t, http.MethodPost, "/v1/shipping-method/method", token, map[string]any{
		"seller_shipping_method_reference": "ups-standard", "name": "UPS Standard",
	})
	if resp.Status != http.StatusCreated {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var created shippingMethod
	resp.Decode(t, &created)
	if created.ID == "" || created.Reference != "ups-standard" || created.Name != "UPS Standard" || !created.Supported || created.IsInStorePickup {
		t.Errorf("unexpected method %+v", created)
	}

	resp = h.Do(t, http.MethodPost, "/v1/shipping-method/method", token, map[string]any{
		"seller_shipping_method_reference": "store", "is_in_store_pickup": true,
	})
	if resp.Status != http.StatusCreated {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}

	var page shippingMethodPage
	h.Do(t, http.MethodGet, "/v1/shipping-method", token, nil).Decode(t, &page)
	if len(page.Data) != 2 || page.Data[0].ID != created.ID || page.Data[1].Reference != "store" || !page.Data[1].IsInStorePickup {
		t.Errorf("the list shows both methods in creation order: %+v", page)
	}
	if page.Pagination.Page != 0 || page.Pagination.HasMore {
		t.Errorf("pagination %+v", page.Pagination)
	}
}

func TestDuplicateShippingMethodReference(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	body := map[string]any{"seller_shipping_method_reference": "dhl", "name": "DHL"}
	if resp := h.Do(t, http.MethodPost, "/v1/shipping-method/method", token, body); resp.Status != http.StatusCreated {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	body["name"] = "DHL again"
	resp := h.Do(t, http.MethodPost, "/v1/shipping-method/method", token, body)
	if resp.Status != http.StatusUnprocessableEntity {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	e := resp.APIError(t)
	if !strings.Contains(e["message"].(string), `"dhl"`) {
		t.Errorf("the refusal names the reference: %v", e)
	}
	rows, _ := h.Store.ListShippingMethods(t.Context(), apitest.ListAll(s))
	if len(rows) != 1 || rows[0].Name != "DHL" {
		t.Errorf("the duplicate changed nothing: %+v", rows)
	}
}

func TestShippingMethodPagination(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	for i := range 51 {
		resp := h.Do(t, http.MethodPost, "/v1/shipping-method/method", token, map[string]any{
			"seller_shipping_method_reference": fmt.Sprintf("m-%02d", i),
		})
		if resp.Status != http.StatusCreated {
			t.Fatalf("got %d %s", resp.Status, resp.Body)
		}
	}
	pages := map[int]shippingMethodPage{}
	for p := range 3 {
		var page shippingMethodPage
		resp := h.Do(t, http.MethodGet, fmt.Sprintf("/v1/shipping-method?page=%d", p), token, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("page %d: %d %s", p, resp.Status, resp.Body)
		}
		resp.Decode(t, &page)
		pages[p] = page
	}
	if len(pages[0].Data) != 50 || !pages[0].Pagination.HasMore || pages[0].Data[0].Reference != "m-00" {
		t.Errorf("page 0: %d methods, has_more %v", len(pages[0].Data), pages[0].Pagination.HasMore)
	}
	if len(pages[1].Data) != 1 || pages[1].Pagination.HasMore || pages[1].Data[0].Reference != "m-50" || pages[1].Pagination.Page != 1 {
		t.Errorf("page 1: %+v", pages[1])
	}
	if len(pages[2].Data) != 0 || pages[2].Pagination.HasMore {
		t.Errorf("page 2 is empty: %+v", pages[2])
	}
}

func TestShippingMethodsAreIsolatedBetweenSellers(t *testing.T) {
	h := apitest.New(t)
	a, b := h.Seller(t), h.Seller(t)
	tokenA, tokenB := h.Token(t, a, "client"), h.Token(t, b, "client")
	body := map[string]any{"seller_shipping_method_reference": "shared-ref"}
	if resp := h.Do(t, http.MethodPost, "/v1/shipping-method/method", tokenA, body); resp.Status != http.StatusCreated {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var page shippingMethodPage
	h.Do(t, http.MethodGet, "/v1/shipping-method", tokenB, nil).Decode(t, &page)
	if len(page.Data) != 0 {
		t.Errorf("seller B sees seller A's methods: %+v", page.Data)
	}
	if resp := h.Do(t, http.MethodPost, "/v1/shipping-method/method", tokenB, body); resp.Status != http.StatusCreated {
		t.Errorf("references are unique per seller, not globally: %d %s", resp.Status, resp.Body)
	}
}

func TestShippingMethodBadInput(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	cases := []struct {
		name, method, target string
		body                 any
		want                 string
	}{
		{"missing reference", "POST", "/v1/shipping-method/method", map[string]any{"name": "x"}, "seller_shipping_method_reference"},
		{"empty reference", "POST", "/v1/shipping-method/method", map[string]any{"seller_shipping_method_reference": ""}, "seller_shipping_method_reference must not be empty"},
		{"over-long reference", "POST", "/v1/shipping-method/method", map[string]any{"seller_shipping_method_reference": strings.Repeat("r", 256)}, "at most 255"},
		{"over-long name", "POST", "/v1/shipping-method/method", map[string]any{"seller_shipping_method_reference": "r", "name": strings.Repeat("n", 256)}, "field name"},
		{"wrong type", "POST", "/v1/shipping-method/method", map[string]any{"seller_shipping_method_reference": "r", "is_in_store_pickup": "yes"}, "is_in_store_pickup"},
		{"malformed json", "POST", "/v1/shipping-method/method", `{"seller_shipping_method_reference": `, "not valid JSON"},
		{"negative page", "GET", "/v1/shipping-method?page=-1", nil, "page"},
		{"page not a number", "GET", "/v1/shipping-method?page=first", nil, "page"},
		{"empty page", "GET", "/v1/shipping-method?page=", nil, "page"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := h.Do(t, tc.method, tc.target, token, tc.body)
			if resp.Status != http.StatusBadRequest {
				t.Fatalf("got %d %s", resp.Status, resp.Body)
			}
			if e := resp.APIError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("the message does not name %q: %v", tc.want, e["message"])
			}
		})
	}
	rows, _ := h.Store.ListShippingMethods(t.Context(), apitest.ListAll(s))
	if len(rows) != 0 {
		t.Errorf("bad input wrote %d rows", len(rows))
	}
}
