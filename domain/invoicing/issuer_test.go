package invoicing_test

import (
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// An invoice's seller is the contractual entity's creditor, the company
// its mandates name, with the letterhead of invoicing.issuers; an entity
// without a creditor or a letterhead has no issuer, the missing key named.
func TestIssuerIsTheEntitysCreditor(t *testing.T) {
	cfg := testenv.Config(t)
	issuers := invoicing.ConfiguredIssuers{Config: cfg}
	issuer, err := issuers.Issuer("")
	if err != nil {
		t.Fatal(err)
	}
	creditor, _ := cfg.Creditor("")
	letterhead := cfg.Invoicing.Issuers[cfg.Sellers.DefaultContractualEntity]
	seller := issuer.Party
	if issuer.Entity != cfg.Sellers.DefaultContractualEntity || seller.Name != creditor.LegalName || seller.Address.Street != creditor.Address.Line1 ||
		seller.Address.PostalCode != creditor.Address.PostalCode || seller.Address.City != creditor.Address.City ||
		seller.Address.Country != creditor.Address.Country || seller.VATID != creditor.VATID || string(issuer.CreditorID) != creditor.CreditorID {
		t.Errorf("the issuer is not the creditor %+v: %+v", creditor, issuer)
	}
	if seller.TaxNumber != letterhead.TaxNumber || seller.Contact.Name != letterhead.ContactName || seller.Email != letterhead.Email {
		t.Errorf("the letterhead %+v is not the issuer's: %+v", letterhead, seller)
	}

	cfg.Invoicing.Issuers["other"] = letterhead
	if _, err := issuers.Issuer("other"); err == nil || !strings.Contains(err.Error(), "creditors.other") {
		t.Errorf("an entity without a creditor: %v", err)
	}
	cfg.Creditors["other"] = creditor
	delete(cfg.Invoicing.Issuers, "other")
	if _, err := issuers.Issuer("other"); err == nil || !strings.Contains(err.Error(), "invoicing.issuers.other") {
		t.Errorf("an entity without a letterhead: %v", err)
	}
}
