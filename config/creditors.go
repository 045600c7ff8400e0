package config

import (
	"fmt"
	"sort"

	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/keyring"
)

// Creditor is a contractual entity as the SEPA direct debits it collects
// name it: the party of the mandate, of the invoices and of the collection
// files. Its fields are checked by Validate (NeedMandates).
type Creditor struct {
	// LegalName is the entity's registered name, the mandate's creditor.
	LegalName string `mapstructure:"legal_name"`
	// Address is where the entity is registered.
	Address CreditorAddress `mapstructure:"address"`
	// VATID is the entity's VAT identification number.
	VATID string `mapstructure:"vat_id"`
	// CreditorID is the SEPA creditor identifier (e.g. DE98ZZZ09999999999).
	CreditorID string `mapstructure:"creditor_id"`
	// Scheme is the SEPA direct debit scheme its mandates are signed
	// under: CORE (consumers and businesses, 8 weeks of refund right) or
	// B2B (businesses only, no refund).
	Scheme string `mapstructure:"scheme"`
	// IBAN and BIC are the account the collections are credited to.
	IBAN string `mapstructure:"iban"`
	BIC  string `mapstructure:"bic"`
}

// CreditorAddress is a creditor's postal address.
type CreditorAddress struct {
	Line1      string `mapstructure:"line1"`
	PostalCode string `mapstructure:"postal_code"`
	City       string `mapstructure:"city"`
	// Country is an ISO 3166-1 alpha-2 code.
	Country string `mapstructure:"country"`
}

// MandatesConfig configures how direct-debit mandates are kept.
type MandatesConfig struct {
	// IBANKeys seal the debtors' IBANs at rest ("id:base64" each, 32
	// bytes, the current key first; see package keyring): keep an older
	// key listed until every row it sealed has been sealed again.
	IBANKeys []string `mapstructure:"iban_keys"`
}

// IBANRing is the key ring of IBANKeys.
func (m MandatesConfig) IBANRing() (*keyring.Ring, error) {
	return keyring.Parse(m.IBANKeys)
}

// creditorDefaults make the default entity a creditor with the
// Bundesbank's test creditor identifier and a test account, so a sandbox
// collects without configuration; a production deployment configures its
// own.
var creditorDefaults = map[string]any{
	"creditors.tenure.legal_name":          "Tenure Financing GmbH",
	"creditors.tenure.address.line1":       "Musterstraße 1",
	"creditors.tenure.address.postal_code": "10115",
	"creditors.tenure.address.city":        "Berlin",
	"creditors.tenure.address.country":     "DE",
	"creditors.tenure.vat_id":              "DE123456789",
	"creditors.tenure.creditor_id":         "DE98ZZZ09999999999",
	"creditors.tenure.scheme":              string(sepa.Core),
	"creditors.tenure.iban":                "DE89370400440532013000",
	"creditors.tenure.bic":                 "COBADEFFXXX",
	"mandates.iban_keys":                   []string{},
}

// Account is the entity's bank account as SEPA files name it: its legal
// name, IBAN and BIC (optional), read as the collection and payout files
// need them; errors name the setting of the entity.
func (c Creditor) Account(entity string) (sepa.AccountHolder, error) {
	iban, err := sepa.ParseIBAN(c.IBAN)
	if err != nil {
		return sepa.AccountHolder{}, fmt.Errorf("creditors.%s.iban: %w", entity, err)
	}
	var bic sepa.BIC
	if c.BIC != "" {
		if bic, err = sepa.ParseBIC(c.BIC); err != nil {
			return sepa.AccountHolder{}, fmt.Errorf("creditors.%s.bic: %w", entity, err)
		}
	}
	return sepa.AccountHolder{Name: c.LegalName, IBAN: iban, BIC: bic}, nil
}

// Creditor is the creditor of a contractual entity ("" is the default
// entity); ok is false for an entity without one.
func (c Config) Creditor(entity string) (Creditor, bool) {
	if entity == "" {
		entity = c.Sellers.DefaultContractualEntity
	}
	cr, ok := c.Creditors[entity]
	return cr, ok
}

// validateCreditors checks every configured creditor: its names and
// address given, its identifier, scheme and account valid.
func (c *Config) validateCreditors(bad func(key, format string, args ...any)) {
	for id, cr := range c.Creditors {
		key := "creditors." + id
		if _, ok := c.Sellers.ContractualEntities[id]; !ok {
			bad(key, "names no contractual entity of sellers.contractual_entities")
		}
		for field, value := range map[string]string{
			"legal_name": cr.LegalName, "address.line1": cr.Address.Line1, "address.postal_code": cr.Address.PostalCode,
			"address.city": cr.Address.City, "vat_id": cr.VATID,
		} {
			if value == "" {
				bad(key+"."+field, "must not be empty")
			}
		}
		if !countryCode.MatchString(cr.Address.Country) {
			bad(key+".address.country", "must be an upper-case ISO 3166-1 alpha-2 code such as DE, got %q", cr.Address.Country)
		}
		if _, err := sepa.ParseCreditorID(cr.CreditorID); err != nil {
			bad(key+".creditor_id", "%v", err)
		}
		if _, err := sepa.ParseScheme(cr.Scheme); err != nil {
			bad(key+".scheme", "%v", err)
		}
		if _, err := sepa.ParseIBAN(cr.IBAN); err != nil {
			bad(key+".iban", "%v", err)
		}
		if _, err := sepa.ParseBIC(cr.BIC); err != nil {
			bad(key+".bic", "%v", err)
		}
	}
}

// validateMandates checks what taking mandates needs: a creditor for each
// contractual entity, and the keys that seal the IBANs.
func (c *Config) validateMandates(bad func(key, format string, args ...any)) {
	entities := make([]string, 0, len(c.Sellers.ContractualEntities))
	for id := range c.Sellers.ContractualEntities {
		entities = append(entities, id)
	}
	sort.Strings(entities)
	for _, id := range entities {
		if _, ok := c.Creditors[id]; !ok {
			bad("creditors."+id, "contractual entity %q needs a creditor (legal_name, address, vat_id, creditor_id, scheme, iban, bic)", id)
		}
	}
	if len(c.Mandates.IBANKeys) == 0 {
		bad("mandates.iban_keys", "must list at least one key id:base64 (32 random bytes), the current one first; `tenure dev` generates one")
	} else if _, err := c.Mandates.IBANRing(); err != nil {
		bad("mandates.iban_keys", "%v", err)
	}
}
