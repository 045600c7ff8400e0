package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestSellerProfileAndLeadsCommands(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	// A deployment with a second contractual entity.
	file := filepath.Join(t.TempDir(), "tenure.yaml")
	if err := os.WriteFile(file, []byte("sellers:\n  contractual_entities:\n    tenure_nl: [NL, BE]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL, "TENURE_CONFIG="+file)
	s, err := auth.CreateSeller(t.Context(), store, "Shop GmbH", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	id := s.Seller.ID.String()

	var shown profileOutput
	decode := func(out []byte) {
		t.Helper()
		shown = profileOutput{}
		if err := json.Unmarshal(out, &shown); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	decode(tenureCLI(t, env, "sellers", "set-profile", id, "--pretty-name", "Shop", "--logo-url", "https://cdn.shop.example/logo.svg",
		"--address-city", "Berlin", "--address-country", "DE", "--capability", "hide_buy_now=true",
		"--capability", "bundles=true", "--contractual-entity", "tenure_nl", "--json"))
	if shown.PrettyName != "Shop" || shown.Name != "Shop GmbH" || shown.LogoURL != "https://cdn.shop.example/logo.svg" ||
		shown.Address.City != "Berlin" || !shown.Capabilities.HideBuyNow || !shown.Capabilities.Bundles ||
		shown.ContractualEntity != "tenure_nl" || !slices.Equal(shown.BillingCountries, []string{"NL", "BE"}) {
		t.Errorf("set-profile: %+v", shown)
	}
	decode(tenureCLI(t, env, "sellers", "set-profile", id, "--capability", "bundles=false", "--json"))
	if shown.PrettyName != "Shop" || shown.Capabilities.Bundles || !shown.Capabilities.HideBuyNow {
		t.Errorf("only the flags given change: %+v", shown)
	}

	for named, bad := range map[string][]string{
		"contractual_entity":   {"--contractual-entity", "nowhere"},
		"logo_url":             {"--logo-url", "http://insecure.example/logo.png"},
		"--capability":         {"--capability", "teleport=true"},
		"address.country_code": {"--address-country", "Germany"},
	} {
		out, err := tenureCLIFails(t, env, append([]string{"sellers", "set-profile", id}, bad...)...)
		if err == nil || !strings.Contains(out, named) {
			t.Errorf("%v is refused naming %s: %v %s", bad, named, err, out)
		}
	}
	p, err := sellers.Load(t.Context(), store.Queries, s.Seller.ID)
	if err != nil || p.ContractualEntity != "tenure_nl" || p.LogoURL != "https://cdn.shop.example/logo.svg" {
		t.Errorf("a refused change changes nothing: %+v %v", p, err)
	}

	decode(tenureCLI(t, env, "sellers", "set-terms", id, "--type", "general_terms", "--language", "de", "--url", "https://shop.example/agb.pdf", "--json"))
	if len(shown.TermsDocuments) != 1 || shown.TermsDocuments[0].URL != "https://shop.example/agb.pdf" {
		t.Errorf("set-terms: %+v", shown.TermsDocuments)
	}
	decode(tenureCLI(t, env, "sellers", "set-terms", id, "--type", "general_terms", "--language", "de", "--remove", "--json"))
	if len(shown.TermsDocuments) != 0 {
		t.Errorf("set-terms --remove: %+v", shown.TermsDocuments)
	}
	if out := string(tenureCLI(t, env, "sellers", "show", id)); !strings.Contains(out, "hide_buy_now") || strings.Contains(out, "bundles") || !strings.Contains(out, "Berlin, DE") {
		t.Errorf("show lists the enabled capabilities:\n%s", out)
	}

	err = store.CreateLead(t.Context(), dbgen.CreateLeadParams{ID: uuid.Must(uuid.NewV7()), Email: "jane@company.example", Company: "Company", FirstName: "Jane"})
	if err != nil {
		t.Fatal(err)
	}
	var leads []leadOutput
	if err := json.Unmarshal(tenureCLI(t, env, "leads", "list", "--json"), &leads); err != nil {
		t.Fatal(err)
	}
	if len(leads) != 1 || leads[0].Email != "jane@company.example" || leads[0].FirstName != "Jane" {
		t.Errorf("leads list: %+v", leads)
	}
	if out := string(tenureCLI(t, env, "leads", "list")); !strings.Contains(out, "jane@company.example") {
		t.Errorf("leads list as a table:\n%s", out)
	}
}
