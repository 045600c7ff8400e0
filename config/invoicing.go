package config

import "time"

// InvoicingConfig configures the invoices Tenure issues (issue 24): who
// issues them for each contractual entity, and how far ahead of a
// collection its file must reach the creditor's bank.
//
// The issuer's creditor data (creditor identifier) is read from here
// until the mandate configuration of each contractual entity lands; the
// invoicing.Issuers interface is what issuing reads, so that source can
// replace this one.
type InvoicingConfig struct {
	// Issuers are the contractual entities' letterheads, by entity id
	// (sellers.contractual_entities).
	Issuers map[string]IssuerConfig `mapstructure:"issuers"`
	// BankDays are the business days the creditor's bank wants a direct
	// debit file before the scheme's own lead time (its cut-off).
	BankDays int `mapstructure:"bank_days"`
	// LinkTTL is how long the customer's signed link to an invoice's PDF
	// (sent in invoice.issued) opens it.
	LinkTTL time.Duration `mapstructure:"link_ttl"`
}

// IssuerConfig is a contractual entity as its invoices name it
// (§14 (4) UStG, XRechnung).
type IssuerConfig struct {
	Name         string   `mapstructure:"name"`
	Street       string   `mapstructure:"street"`
	PostalCode   string   `mapstructure:"postal_code"`
	City         string   `mapstructure:"city"`
	Country      string   `mapstructure:"country"`
	VATID        string   `mapstructure:"vat_id"`
	TaxNumber    string   `mapstructure:"tax_number"`
	Email        string   `mapstructure:"email"`
	ContactName  string   `mapstructure:"contact_name"`
	ContactPhone string   `mapstructure:"contact_phone"`
	ContactEmail string   `mapstructure:"contact_email"`
	LegalInfo    []string `mapstructure:"legal_info"`
	// CreditorID is the SEPA creditor identifier the entity collects
	// under, e.g. DE98ZZZ09999999999.
	CreditorID string `mapstructure:"creditor_id"`
}

// invoicingDefaults are the default entity's letterhead: placeholders a
// deployment replaces (the sandbox's and the tests' issuer).
var invoicingDefaults = map[string]any{
	"invoicing.bank_days": 1,
	// 400 days: a year's bookkeeping and its closing.
	"invoicing.link_ttl": "9600h",
	"invoicing.issuers": map[string]any{
		"tenure": map[string]any{
			"name": "Tenure Finance GmbH", "street": "Friedrichstraße 123", "postal_code": "10117", "city": "Berlin", "country": "DE",
			"vat_id": "DE123456789", "tax_number": "37/123/45678", "email": "invoices@tenure.example",
			"contact_name": "Receivables", "contact_phone": "+49 30 1234567", "contact_email": "receivables@tenure.example",
			"legal_info":  []string{"Amtsgericht Charlottenburg HRB 123456 B", "Sitz der Gesellschaft: Berlin"},
			"creditor_id": "DE98ZZZ09999999999",
		},
	},
}

func (c *Config) validateInvoicing(bad func(key, format string, args ...any)) {
	if c.Invoicing.BankDays < 0 || c.Invoicing.BankDays > 5 {
		bad("invoicing.bank_days", "must be between 0 and 5 business days, got %d", c.Invoicing.BankDays)
	}
	if c.Invoicing.LinkTTL < time.Hour {
		bad("invoicing.link_ttl", "must be at least 1h, got %s", c.Invoicing.LinkTTL)
	}
	for id, issuer := range c.Invoicing.Issuers {
		if issuer.Name == "" || issuer.Street == "" || issuer.City == "" || issuer.Country == "" || issuer.CreditorID == "" {
			bad("invoicing.issuers."+id, "needs name, street, city, country and creditor_id")
		}
	}
}
