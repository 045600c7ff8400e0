package config_test

import (
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
)

// testIBANKey is a key of the IBAN ring ("id:base64", 32 bytes).
const testIBANKey = "k-1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="

// The default entity is a creditor out of the box; what taking mandates
// needs (NeedMandates) is checked, each problem named by its key: the
// IBAN keys, a creditor per entity, its identifier, scheme and account.
func TestCreditors(t *testing.T) {
	c := load(t)
	c.Mandates.IBANKeys = []string{testIBANKey}
	if err := c.Validate(config.NeedMandates); err != nil {
		t.Fatalf("the defaults: %v", err)
	}
	cr, ok := c.Creditor("")
	if !ok || cr.LegalName == "" || cr.CreditorID != "DE98ZZZ09999999999" || cr.Scheme != "CORE" || cr.IBAN != "DE89370400440532013000" ||
		cr.BIC != "COBADEFFXXX" || cr.VATID != "DE123456789" || cr.Address.Country != "DE" {
		t.Errorf("the default creditor: %+v %v", cr, ok)
	}
	if same, _ := c.Creditor("tenure"); same != cr {
		t.Errorf("the default entity by name: %+v", same)
	}
	if _, ok := c.Creditor("other"); ok {
		t.Error("an entity without a creditor has one")
	}
	if ring, err := c.Mandates.IBANRing(); err != nil || ring.CurrentID() != "k-1" {
		t.Errorf("the ring: %v", err)
	}

	t.Setenv("TENURE_CREDITORS_TENURE_SCHEME", "B2B")
	if cr, _ := load(t).Creditor(""); cr.Scheme != "B2B" {
		t.Errorf("the scheme from the environment: %q", cr.Scheme)
	}

	c = load(t)
	if err := c.Validate(config.NeedDatabase); err != nil {
		t.Errorf("commands that take no mandates need no IBAN key: %v", err)
	}
	c.Sellers.ContractualEntities["other"] = []string{"AT"}
	bad := c.Creditors["tenure"]
	bad.CreditorID = "DE99ZZZ09999999999"
	bad.Scheme = "SEPA"
	bad.IBAN = "DE88370400440532013000"
	bad.BIC = "COBA"
	bad.LegalName = ""
	bad.Address.Country = "Germany"
	c.Creditors["tenure"] = bad
	err := c.Validate(config.NeedMandates)
	if err == nil {
		t.Fatal("bad creditors pass")
	}
	for _, want := range []string{
		"mandates.iban_keys (TENURE_MANDATES_IBAN_KEYS): must list at least one key",
		"creditors.other (TENURE_CREDITORS_OTHER): contractual entity \"other\" needs a creditor",
		"creditors.tenure.creditor_id (TENURE_CREDITORS_TENURE_CREDITOR_ID): invalid SEPA creditor identifier: the check digits",
		"creditors.tenure.scheme (TENURE_CREDITORS_TENURE_SCHEME): the SEPA direct debit scheme is CORE or B2B",
		"creditors.tenure.iban (TENURE_CREDITORS_TENURE_IBAN): invalid IBAN: the check digits do not match",
		"creditors.tenure.bic (TENURE_CREDITORS_TENURE_BIC): a BIC has 8 or 11 characters",
		"creditors.tenure.legal_name (TENURE_CREDITORS_TENURE_LEGAL_NAME): must not be empty",
		"creditors.tenure.address.country (TENURE_CREDITORS_TENURE_ADDRESS_COUNTRY): must be an upper-case ISO 3166-1 alpha-2 code",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the problems do not say %q:\n%v", want, err)
		}
	}
	c.Mandates.IBANKeys = []string{"k-1:c2hvcnQ="}
	if err := c.Validate(config.NeedMandates); err == nil || !strings.Contains(err.Error(), "mandates.iban_keys (TENURE_MANDATES_IBAN_KEYS): key 1: key \"k-1\": the secret has 5 bytes") {
		t.Errorf("a short key: %v", err)
	}
}
