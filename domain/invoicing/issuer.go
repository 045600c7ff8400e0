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

// ConfiguredIssuers are the issuers of the configuration: the seller
// party is the entity's creditor (creditors.<entity>: name, address, VAT
// id, creditor identifier) with the letterhead of invoicing.issuers; the
// entity "" is sellers.default_contractual_entity.
type ConfiguredIssuers struct {
	Config *config.Config
}

// Issuer is an entity's configured issuer, or an error naming the key of
// the entity's creditor or letterhead that is missing.
func (c ConfiguredIssuers) Issuer(entity string) (Issuer, error) {
	if entity == "" {
		entity = c.Config.Sellers.DefaultContractualEntity
	}
	cr, ok := c.Config.Creditor(entity)
	if !ok {
		return Issuer{}, fmt.Errorf("contractual entity %q has no creditors.%s entry", entity, entity)
	}
	letterhead, ok := c.Config.Invoicing.Issuers[entity]
	if !ok {
		return Issuer{}, fmt.Errorf("contractual entity %q has no invoicing.issuers.%s entry", entity, entity)
	}
	creditor, err := sepa.ParseCreditorID(cr.CreditorID)
	if err != nil {
		return Issuer{}, fmt.Errorf("creditors.%s.creditor_id: %w", entity, err)
	}
	return Issuer{
		Entity: entity,
		Party: invoices.Party{
			Name: cr.LegalName,
			Address: invoices.Address{
				Street: cr.Address.Line1, PostalCode: cr.Address.PostalCode, City: cr.Address.City, Country: cr.Address.Country,
			},
			VATID:     cr.VATID,
			TaxNumber: letterhead.TaxNumber,
			Email:     letterhead.Email,
			Contact:   invoices.Contact{Name: letterhead.ContactName, Phone: letterhead.ContactPhone, Email: letterhead.ContactEmail},
			LegalInfo: letterhead.LegalInfo,
		},
		CreditorID: creditor,
	}, nil
}
