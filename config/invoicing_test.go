package config_test

import (
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
)

// An invoice's seller is the entity's creditor: the default letterhead
// holds only what invoices need beyond it, a letterhead without a
// creditor or without the contact XRechnung wants is refused by its key.
func TestInvoicingIssuers(t *testing.T) {
	c := load(t)
	if err := c.Validate(config.NeedDatabase); err != nil {
		t.Fatalf("the defaults: %v", err)
	}
	issuer, ok := c.Invoicing.Issuers["tenure"]
	if !ok || issuer.TaxNumber == "" || issuer.ContactName == "" || issuer.ContactPhone == "" || issuer.ContactEmail == "" || len(issuer.LegalInfo) == 0 {
		t.Errorf("the default letterhead: %+v %v", issuer, ok)
	}

	t.Setenv("TENURE_INVOICING_ISSUERS_TENURE_TAX_NUMBER", "11/222/33333")
	if got := load(t).Invoicing.Issuers["tenure"].TaxNumber; got != "11/222/33333" {
		t.Errorf("the tax number from the environment: %q", got)
	}

	c = load(t)
	c.Sellers.ContractualEntities["other"] = []string{"AT"}
	c.Invoicing.Issuers["other"] = config.IssuerConfig{TaxNumber: "1", ContactName: "Receivables", ContactPhone: "+43 1 234", ContactEmail: "ar@other.example"}
	c.Invoicing.Issuers["tenure"] = config.IssuerConfig{TaxNumber: "37/123/45678"}
	err := c.Validate(config.NeedDatabase)
	if err == nil {
		t.Fatal("a letterhead without a creditor passes")
	}
	for _, want := range []string{
		"invoicing.issuers.other (TENURE_INVOICING_ISSUERS_OTHER): needs creditors.other",
		"invoicing.issuers.tenure.contact_name (TENURE_INVOICING_ISSUERS_TENURE_CONTACT_NAME): must not be empty",
		"invoicing.issuers.tenure.contact_phone (TENURE_INVOICING_ISSUERS_TENURE_CONTACT_PHONE): must not be empty",
		"invoicing.issuers.tenure.contact_email (TENURE_INVOICING_ISSUERS_TENURE_CONTACT_EMAIL): must not be empty",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the problems do not say %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "invoicing.issuers.tenure (") {
		t.Errorf("the default entity has its creditor:\n%v", err)
	}
}
