package terms

import (
	"reflect"
	"testing"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/sellers"
)

var deployment = config.TermsConfig{
	"en": {"general_terms": "https://t.example/en/terms.pdf", "privacy_policy": "https://t.example/en/privacy.pdf"},
	"de": {"general_terms": "https://t.example/de/agb.pdf", "privacy_policy": ""},
	"nl": {},
}

func TestAssemble(t *testing.T) {
	docs := Assemble(deployment, []sellers.TermsDocument{
		{Type: "general_terms", Language: "de", URL: "https://shop.example/agb.pdf"},
		{Type: "return_policy", Language: "en", URL: "https://shop.example/returns"},
	})
	want := Documents{
		"en": {
			{ID: "general_terms-en", Type: "general_terms", URL: "https://t.example/en/terms.pdf"},
			{ID: "privacy_policy-en", Type: "privacy_policy", URL: "https://t.example/en/privacy.pdf"},
			{ID: "seller-return_policy-en", Type: "return_policy", URL: "https://shop.example/returns"},
		},
		"de": {{ID: "seller-general_terms-de", Type: "general_terms", URL: "https://shop.example/agb.pdf"}},
		"nl": {},
	}
	if !reflect.DeepEqual(docs, want) {
		t.Errorf("got %+v\nwant %+v", docs, want)
	}
}

func TestCustomerLanguage(t *testing.T) {
	for _, c := range []struct{ stored, accept, want string }{
		{"nl", "de-DE,de;q=0.9", "nl"},
		{"", "de-DE,de;q=0.9,en;q=0.8", "de"},
		{"fr", "fr-FR", "en"},
		{"", "", "en"},
	} {
		if got := CustomerLanguage(c.stored, c.accept); got != c.want {
			t.Errorf("CustomerLanguage(%q, %q) = %q, want %q", c.stored, c.accept, got, c.want)
		}
	}
}

func TestDeployment(t *testing.T) {
	if !Deployment(deployment, "general_terms") || !Deployment(deployment, "privacy_policy") {
		t.Error("configured types are the deployment's")
	}
	if Deployment(deployment, "return_policy") {
		t.Error("a type without a URL anywhere is not the deployment's")
	}
}
