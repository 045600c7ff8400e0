package customer_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func TestBranding(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "branding-1")
	token := h.CustomerToken(t, o, "branding:read")

	var info struct {
		LogoURL *string `json:"logo_url"`
	}
	resp := h.Customer(t, http.MethodGet, "/branding/offers/"+o.ID, token, nil)
	resp.Decode(t, &info)
	if resp.Status != http.StatusOK || info.LogoURL != nil || !strings.Contains(string(resp.Body), `"logo_url":null`) {
		t.Errorf("a seller without a logo: %d %s", resp.Status, resp.Body)
	}
	resp = h.Do(t, http.MethodPatch, "/v1/seller-profile", f.Token, map[string]any{"logo_url": "https://cdn.shop.example/logo.svg"})
	if resp.Status != http.StatusOK {
		t.Fatalf("set logo: %d %s", resp.Status, resp.Body)
	}
	for _, target := range []string{"/branding/offers/" + o.ID, "/branding/offers/" + o.ID + "/anonymized?token=" + o.Token} {
		resp = h.Customer(t, http.MethodGet, target, token, nil)
		resp.Decode(t, &info)
		if resp.Status != http.StatusOK || info.LogoURL == nil || *info.LogoURL != "https://cdn.shop.example/logo.svg" {
			t.Errorf("%s: %d %s", target, resp.Status, resp.Body)
		}
	}
	other := f.NewCustomerOffer(t, "branding-2")
	resp = h.Customer(t, http.MethodGet, "/branding/offers/"+o.ID+"/anonymized?token="+other.Token, "", nil)
	if resp.Status != http.StatusBadRequest || resp.ErrorName(t) != "InvalidToken" {
		t.Errorf("another offer's shared token: %d %s", resp.Status, resp.Body)
	}
}

type termsResult struct {
	Applicable []termsDoc `json:"applicable_terms_and_conditions"`
	De         []termsDoc `json:"de"`
	En         []termsDoc `json:"en"`
	Nl         []termsDoc `json:"nl"`
}

type termsDoc struct {
	ID, Type, URL string
}

func TestTermsAndConditionsLinks(t *testing.T) {
	f := apitest.NewOfferFixture(t, func(c *config.Config) {
		c.Terms = config.TermsConfig{
			"en": {"general_terms": "https://docs.tenure.example/en/terms.pdf", "privacy_policy": "https://docs.tenure.example/en/privacy.pdf"},
			"de": {"general_terms": "https://docs.tenure.example/de/agb.pdf"},
			"nl": {"general_terms": "https://docs.tenure.example/nl/voorwaarden.pdf"},
		}
	})
	h := f.Harness
	o := f.NewCustomerOffer(t, "terms-1")
	token := h.CustomerToken(t, o, "offer:read")

	// The seller adds a document of its own; the deployment's types are the operator's.
	resp := h.Do(t, http.MethodPatch, "/v1/seller-profile", f.Token, map[string]any{
		"terms_and_conditions": []map[string]any{{"type": "return_policy", "language": "de", "url": "https://shop.example/de/retoure"}},
	})
	if resp.Status != http.StatusOK {
		t.Fatalf("seller documents: %d %s", resp.Status, resp.Body)
	}
	resp = h.Do(t, http.MethodPatch, "/v1/seller-profile", f.Token, map[string]any{
		"terms_and_conditions": []map[string]any{{"type": "general_terms", "language": "de", "url": "https://shop.example/agb"}},
	})
	if resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), "terms_and_conditions[0].type") {
		t.Errorf("a seller replacing the deployment's terms: %d %s", resp.Status, resp.Body)
	}

	get := func(method, target, token, acceptLanguage string, body any) termsResult {
		t.Helper()
		req := apitest.NewRequest(method, "/customer"+target)
		if body != nil {
			req = jsonRequest(t, method, "/customer"+target, body)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if acceptLanguage != "" {
			req.Header.Set("Accept-Language", acceptLanguage)
		}
		resp := h.Send(t, req)
		if resp.Status != http.StatusOK {
			t.Fatalf("%s %s: %d %s", method, target, resp.Status, resp.Body)
		}
		var r termsResult
		resp.Decode(t, &r)
		return r
	}
	r := get(http.MethodGet, "/offers/"+o.ID+"/terms_and_conditions_links", token, "de-DE,de;q=0.9,en;q=0.5", nil)
	if len(r.En) != 2 || len(r.Nl) != 1 || len(r.De) != 2 || r.De[1].ID != "seller-return_policy-de" || r.De[0].ID != "general_terms-de" {
		t.Errorf("documents per language: %+v", r)
	}
	if len(r.Applicable) != 2 || r.Applicable[0].URL != "https://docs.tenure.example/de/agb.pdf" {
		t.Errorf("applicable in the customer's language (Accept-Language de): %+v", r.Applicable)
	}
	r = get(http.MethodGet, "/offers/"+o.ID+"/terms_and_conditions_links/anonymized?token="+o.Token, "", "fr", nil)
	if len(r.Applicable) != 2 || r.Applicable[0].Type != "general_terms" || !strings.Contains(r.Applicable[0].URL, "/en/") {
		t.Errorf("English when no language of Tenure's is acceptable: %+v", r.Applicable)
	}
	r = get(http.MethodPost, "/offers/"+o.ID+"/terms_and_conditions_links/", "", "de", map[string]any{"params": map[string]any{"language": "nl"}})
	if len(r.Applicable) != 1 || !strings.Contains(r.Applicable[0].URL, "voorwaarden") {
		t.Errorf("find in the language asked for, without credentials: %+v", r.Applicable)
	}
	r = get(http.MethodPost, "/offers/"+o.ID+"/terms_and_conditions_links/", "", "de", map[string]any{})
	if len(r.Applicable) != 2 {
		t.Errorf("find without params uses the customer's language: %+v", r.Applicable)
	}

	resp = h.Customer(t, http.MethodPost, "/offers/"+apitest.NewID()+"/terms_and_conditions_links/", "", map[string]any{})
	if resp.Status != http.StatusNotFound || resp.ErrorName(t) != "NotFound" {
		t.Errorf("find for an offer that does not exist: %d %s", resp.Status, resp.Body)
	}
	resp = h.Customer(t, http.MethodPost, "/offers/"+o.ID+"/terms_and_conditions_links/", "", map[string]any{"params": map[string]any{"language": "fr"}})
	if resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), "language") {
		t.Errorf("a language Tenure has no documents in: %d %s", resp.Status, resp.Body)
	}
}

func TestCRMContacts(t *testing.T) {
	h := apitest.New(t)
	resp := h.Customer(t, http.MethodPost, "/crm/contacts", "", map[string]any{"properties": map[string]any{
		"email": "jane@company.example", "firstname": "Jane", "lastname": "Doe", "company": "Company GmbH",
		"phone": "+49 30 123456", "website": "https://company.example",
	}})
	if resp.Status != http.StatusCreated || len(resp.Body) != 0 {
		t.Fatalf("create: %d %q", resp.Status, resp.Body)
	}
	leads, err := h.Store.ListLeads(t.Context(), dbgen.ListLeadsParams{RowLimit: 100})
	if err != nil || len(leads) != 1 || leads[0].Email != "jane@company.example" || leads[0].Company != "Company GmbH" || leads[0].LastName != "Doe" {
		t.Errorf("stored for the operator: %+v %v", leads, err)
	}
	for name, body := range map[string]any{
		"no email":       map[string]any{"properties": map[string]any{"firstname": "Jane"}},
		"not an e-mail":  map[string]any{"properties": map[string]any{"email": "jane at company"}},
		"no properties":  map[string]any{},
		"long company":   map[string]any{"properties": map[string]any{"email": "a@b.example", "company": strings.Repeat("c", 256)}},
		"number as name": map[string]any{"properties": map[string]any{"email": "a@b.example", "firstname": 7}},
	} {
		resp := h.Customer(t, http.MethodPost, "/crm/contacts", "", body)
		if resp.Status != http.StatusBadRequest || resp.ErrorName(t) != "BadRequest" {
			t.Errorf("%s: %d %s", name, resp.Status, resp.Body)
		}
	}
	big := `{"properties":{"email":"a@b.example","website":"` + strings.Repeat("w", 70<<10) + `"}}`
	resp = h.Customer(t, http.MethodPost, "/crm/contacts", "", big)
	if resp.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over 64 KiB: %d %s", resp.Status, resp.Body)
	}
	if leads, _ := h.Store.ListLeads(t.Context(), dbgen.ListLeadsParams{RowLimit: 100}); len(leads) != 1 {
		t.Errorf("refused contacts were stored: %d", len(leads))
	}
}

func TestAccessoryFeedback(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "feedback-1")
	line := o.View.Lines[0]
	resp := h.Customer(t, http.MethodPost, "/feedback/accessory_feedback", "", map[string]any{
		"customer_feedback": "The cable is too short.", "offer_id": o.ID, "offer_line_id": line.ID,
	})
	var fb struct {
		ID          string `json:"id"`
		Feedback    string `json:"customer_feedback"`
		OfferID     string `json:"offer_id"`
		OfferLineID string `json:"offer_line_id"`
	}
	resp.Decode(t, &fb)
	if resp.Status != http.StatusCreated || fb.ID == "" || fb.OfferID != o.ID || fb.OfferLineID != line.ID || fb.Feedback != "The cable is too short." {
		t.Errorf("add: %d %s", resp.Status, resp.Body)
	}
	var subline string
	if err := h.Store.Pool.QueryRow(t.Context(), "SELECT document->'lines'->0->'sublines'->0->>'id' FROM offers WHERE id = $1", o.ID).Scan(&subline); err != nil {
		t.Fatal(err)
	}
	resp = h.Customer(t, http.MethodPost, "/feedback/accessory_feedback", "", map[string]any{
		"customer_feedback": "Nice cable.", "offer_id": o.ID, "offer_line_id": subline,
	})
	if resp.Status != http.StatusCreated {
		t.Errorf("feedback on a subline: %d %s", resp.Status, resp.Body)
	}
	for field, body := range map[string]map[string]any{
		"offer_id":          {"customer_feedback": "x", "offer_id": apitest.NewID(), "offer_line_id": line.ID},
		"offer_line_id":     {"customer_feedback": "x", "offer_id": o.ID, "offer_line_id": apitest.NewID()},
		"customer_feedback": {"customer_feedback": strings.Repeat("x", 2001), "offer_id": o.ID, "offer_line_id": line.ID},
	} {
		resp := h.Customer(t, http.MethodPost, "/feedback/accessory_feedback", "", body)
		if resp.Status != http.StatusBadRequest || !strings.Contains(resp.APIError(t)["message"].(string), field) {
			t.Errorf("bad %s: %d %s", field, resp.Status, resp.Body)
		}
	}
	var count int
	if err := h.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM accessory_feedback").Scan(&count); err != nil || count != 2 {
		t.Errorf("stored remarks: %d %v", count, err)
	}
}
