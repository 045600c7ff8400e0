package invoicing

import (
	"fmt"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/invoices"
	"github.com/tenurehq/tenure/domain/sepa"
)

// Issuer is a contractual entity as its invoices name it: the seller
// party of the invoice and the creditor it collects as.
type Issuer struct {
	// Entity is the contractual entity's id, whose series numbers the
	// invoice.
	Entity     string
	Party      invoices.Party
	CreditorID sepa.CreditorID
}

// Issuers finds the issuer of a contractual entity by its id.
type Issuers interface {
	Issuer(entity string) (Issuer, error)
}

// ConfiguredIssuers are the issuers of the configuration's
// invoicing.issuers, the entity "" being sellers.default_contractual_entity.
type ConfiguredIssuers struct {
	Invoicing config.InvoicingConfig
	Sellers   config.SellersConfig
}

// Issuer is an entity's configured issuer, or an error naming the entity
// whose letterhead is not configured.
func (c ConfiguredIssuers) Issuer(entity string) (Issuer, error) {
	if entity == "" {
		entity = c.Sellers.DefaultContractualEntity
	}
	cfg, ok := c.Invoicing.Issuers[entity]
	if !ok {
		return Issuer{}, fmt.Errorf("contractual entity %q has no invoicing.issuers entry", entity)
	}
	creditor, err := sepa.ParseCreditorID(cfg.CreditorID)
	if err != nil {
		return Issuer{}, fmt.Errorf("invoicing.issuers.%s.creditor_id: %w", entity, err)
	}
	return Issuer{
		Entity: entity,
		Party: invoices.Party{
			Name:      cfg.Name,
			Address:   invoices.Address{Street: cfg.Street, PostalCode: cfg.PostalCode, City: cfg.City, Country: cfg.Country},
			VATID:     cfg.VATID,
			TaxNumber: cfg.TaxNumber,
			Email:     cfg.Email,
			Contact:   invoices.Contact{Name: cfg.ContactName, Phone: cfg.ContactPhone, Email: cfg.ContactEmail},
			LegalInfo: cfg.LegalInfo,
		},
		CreditorID: creditor,
	}, nil
}
