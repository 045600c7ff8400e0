package config

import "time"

// InvoicingConfig configures the invoices Tenure issues (issue 24): what
// each contractual entity's invoices say beyond its creditor
// (creditors.<entity>), and how far ahead of a collection its file must
// reach the creditor's bank.
type InvoicingConfig struct {
	// Issuers are the contractual entities' letterheads, by entity id
	// (sellers.contractual_entities); the name, address, VAT id and
	// creditor identifier are the entity's creditor's.
	Issuers map[string]IssuerConfig `mapstructure:"issuers"`
	// BankDays are the business days the creditor's bank wants a direct
	// debit file before the scheme's own lead time (its cut-off).
	BankDays int `mapstructure:"bank_days"`
	// LinkTTL is how long the customer's signed link to an invoice's PDF
	// (sent in invoice.issued) opens it.
	LinkTTL time.Duration `mapstructure:"link_ttl"`
}

// IssuerConfig is what a contractual entity's invoices name beyond its
// creditor (§14 (4) UStG, XRechnung): its tax number, where to write, and
// the legal lines of its letterhead.
type IssuerConfig struct {
	TaxNumber    string   `mapstructure:"tax_number"`
	Email        string   `mapstructure:"email"`
	ContactName  string   `mapstructure:"contact_name"`
	ContactPhone string   `mapstructure:"contact_phone"`
	ContactEmail string   `mapstructure:"contact_email"`
	LegalInfo    []string `mapstructure:"legal_info"`
}

// invoicingDefaults are the default entity's letterhead: placeholders a
// deployment replaces (the sandbox's and the tests' issuer).
var invoicingDefaults = map[string]any{
	"invoicing.bank_days": 1,
	// 400 days: a year's bookkeeping and its closing.
	"invoicing.link_ttl": "9600h",
	"invoicing.issuers": map[string]any{
		"tenure": map[string]any{
			"tax_number": "37/123/45678", "email": "invoices@tenure.example",
			"contact_name": "Receivables", "contact_phone": "+49 30 1234567", "contact_email": "receivables@tenure.example",
			"legal_info": []string{"Amtsgericht Charlottenburg HRB 123456 B", "Sitz der Gesellschaft: Berlin"},
		},
	},
}

// validateInvoicing checks the lead times and that every letterhead
// belongs to an entity whose creditor names the invoices' seller and
// names the contact XRechnung wants.
func (c *Config) validateInvoicing(bad func(key, format string, args ...any)) {
	if c.Invoicing.BankDays < 0 || c.Invoicing.BankDays > 5 {
		bad("invoicing.bank_days", "must be between 0 and 5 business days, got %d", c.Invoicing.BankDays)
	}
	if c.Invoicing.LinkTTL < time.Hour {
		bad("invoicing.link_ttl", "must be at least 1h, got %s", c.Invoicing.LinkTTL)
	}
	for id, issuer := range c.Invoicing.Issuers {
		key := "invoicing.issuers." + id
		if _, ok := c.Creditors[id]; !ok {
			bad(key, "needs creditors.%s: the invoices' seller is the entity's creditor (legal_name, address, vat_id, creditor_id)", id)
		}
		// XRechnung wants a contact with phone and e-mail (BR-DE-5 to 7).
		for field, value := range map[string]string{
			"contact_name": issuer.ContactName, "contact_phone": issuer.ContactPhone, "contact_email": issuer.ContactEmail,
		} {
			if value == "" {
				bad(key+"."+field, "must not be empty (XRechnung BR-DE-5 to 7)")
			}
		}
	}
}
