package endcustomer

import (
	"regexp"
	"slices"
	"testing"
)

func TestLegalFormsAreUniqueAndWellFormed(t *testing.T) {
	code := regexp.MustCompile(`^([a-z]{2}_)?[a-z_]+$`)
	seen := map[string]bool{}
	for _, f := range LegalForms {
		if seen[f.Code] || !code.MatchString(f.Code) || f.Name == "" || f.Kind == "" {
			t.Errorf("legal form %+v is repeated or incomplete", f)
		}
		seen[f.Code] = true
	}
	for _, country := range []string{"DE", "AT", "NL", "BE", "CH", "FR", "IT", "ES", "LU"} {
		forms := LegalFormsOf(country)
		if len(forms) < 8 {
			t.Errorf("%s has only %d legal forms", country, len(forms))
		}
		for _, f := range forms {
			if f.Country != country {
				t.Errorf("%s lists %+v", country, f)
			}
		}
		if !slices.ContainsFunc(forms, func(f LegalForm) bool { return f.Kind == SoleProprietorship }) ||
			!slices.ContainsFunc(forms, func(f LegalForm) bool { return f.Kind == Corporation && f.Registered }) {
			t.Errorf("%s lacks a sole proprietorship or a registered corporation", country)
		}
	}
}

func TestLegalFormsOfACountryWithoutAList(t *testing.T) {
	forms := LegalFormsOf("PL")
	if len(forms) != 8 || forms[0].Code != "sole_proprietor" || forms[0].Country != "" {
		t.Errorf("generic forms for PL: %+v", forms)
	}
	if f, ok := LegalFormByCode("de_gmbh"); !ok || f.Name != "GmbH" || !f.Registered || f.Country != "DE" {
		t.Errorf("de_gmbh: %+v %v", f, ok)
	}
	if _, ok := LegalFormByCode("gmbh"); ok {
		t.Error("a form is named with its country")
	}
	if got := LegalFormCodes(SoleProprietorship); !slices.Contains(got, "de_freelancer") || !slices.Contains(got, "sole_proprietor") || slices.Contains(got, "de_gmbh") {
		t.Errorf("sole proprietorships: %v", got)
	}
}
