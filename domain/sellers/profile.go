// Package sellers keeps a seller's profile: what the end customer's
// checkout shows of it (names, logo, contact, address, capabilities) and
// what the operator decides for it (contractual entity, terms documents).
package sellers

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// Profile is a seller as its customers and the operator see it.
type Profile struct {
	ID                     uuid.UUID
	Name                   string
	PrettyName             string
	LogoURL                string
	Email                  string
	Currency               string
	Address                Address
	ProductReferenceSource string
	Capabilities           Capabilities
	// ContractualEntity is the id of the entity that finances the seller's
	// offers; empty means the deployment's default.
	ContractualEntity    string
	TermsDocuments       []TermsDocument
	ParentSellerID       *uuid.UUID
	PDFReaderAssistantID string
	// PaymentMethodRequired: the seller's customers give a SEPA mandate
	// before they accept (the operator decides it).
	PaymentMethodRequired bool
	UpdatedAt             time.Time
}

// Address is a seller's postal address, stored as the contract's Address.
type Address struct {
	Line1       string `json:"line1,omitempty"`
	Line2       string `json:"line2,omitempty"`
	PostalCode  string `json:"postal_code,omitempty"`
	City        string `json:"city,omitempty"`
	Region      string `json:"region,omitempty"`
	CountryCode string `json:"country_code,omitempty"`
}

// Capabilities are the checkout features the operator enables for a
// seller (the contract's capability_* fields).
type Capabilities struct {
	AddCustomProducts          bool   `json:"add_custom_products,omitempty"`
	AnonymizedPricing          bool   `json:"anonymized_pricing,omitempty"`
	AnonymousEcomOfferCreation bool   `json:"anonymous_ecom_offer_creation,omitempty"`
	Bundles                    bool   `json:"bundles,omitempty"`
	DualPricing                bool   `json:"dual_pricing,omitempty"`
	HideBuyNow                 bool   `json:"hide_buy_now,omitempty"`
	InternationalShipment      bool   `json:"international_shipment,omitempty"`
	ChatbotID                  string `json:"chatbot_id,omitempty"`
}

// TermsDocument is one of the seller's terms and conditions documents: its
// own kind of document, or the operator's replacement of a deployment
// document of the same type and language.
type TermsDocument struct {
	Type     string `json:"type"`
	Language string `json:"language"`
	URL      string `json:"url"`
}

// FromRow reads a profile from its row.
func FromRow(s dbgen.Seller) (Profile, error) {
	p := Profile{
		ID: s.ID, Name: s.Name, PrettyName: s.PrettyName, LogoURL: s.LogoUrl, Email: s.Email, Currency: s.Currency,
		ProductReferenceSource: s.ProductReferenceSource, ContractualEntity: s.ContractualEntity,
		ParentSellerID: s.ParentSellerID, PDFReaderAssistantID: s.PdfReaderAssistantID, UpdatedAt: s.UpdatedAt,
		PaymentMethodRequired: s.PaymentMethodRequired,
	}
	if err := decode(s.ID, "address", s.Address, &p.Address); err != nil {
		return Profile{}, err
	}
	if err := decode(s.ID, "capabilities", s.Capabilities, &p.Capabilities); err != nil {
		return Profile{}, err
	}
	if err := decode(s.ID, "terms documents", s.TermsDocuments, &p.TermsDocuments); err != nil {
		return Profile{}, err
	}
	if p.TermsDocuments == nil {
		p.TermsDocuments = []TermsDocument{}
	}
	return p, nil
}

func decode(id uuid.UUID, what string, raw []byte, into any) error {
	if err := json.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("seller %s has unreadable %s: %w", id, what, err)
	}
	return nil
}

// Load reads a seller's profile; an unknown seller is the query's no-rows
// error.
func Load(ctx context.Context, q *dbgen.Queries, id uuid.UUID) (Profile, error) {
	row, err := q.GetSeller(ctx, id)
	if err != nil {
		return Profile{}, err
	}
	return FromRow(row)
}

// Update changes a seller's profile in one transaction: change receives
// the current profile, locked against concurrent updates, and edits it;
// an error from change (such as a refused value) leaves it unchanged.
func Update(ctx context.Context, store *db.Store, id uuid.UUID, change func(*Profile) error) (Profile, error) {
	var updated Profile
	err := store.InTx(ctx, func(q *dbgen.Queries) error {
		row, err := q.GetSellerForUpdate(ctx, id)
		if err != nil {
			return err
		}
		p, err := FromRow(row)
		if err != nil {
			return err
		}
		if err := change(&p); err != nil {
			return err
		}
		params, err := p.params()
		if err != nil {
			return err
		}
		row, err = q.UpdateSellerProfile(ctx, params)
		if err != nil {
			return err
		}
		updated, err = FromRow(row)
		return err
	})
	return updated, err
}

func (p Profile) params() (dbgen.UpdateSellerProfileParams, error) {
	address, err := json.Marshal(p.Address)
	if err != nil {
		return dbgen.UpdateSellerProfileParams{}, err
	}
	capabilities, err := json.Marshal(p.Capabilities)
	if err != nil {
		return dbgen.UpdateSellerProfileParams{}, err
	}
	documents := p.TermsDocuments
	if documents == nil {
		documents = []TermsDocument{}
	}
	terms, err := json.Marshal(documents)
	if err != nil {
		return dbgen.UpdateSellerProfileParams{}, err
	}
	return dbgen.UpdateSellerProfileParams{
		ID: p.ID, Name: p.Name, PrettyName: p.PrettyName, LogoUrl: p.LogoURL, Email: p.Email, Address: address,
		ProductReferenceSource: p.ProductReferenceSource, Capabilities: capabilities, ContractualEntity: p.ContractualEntity,
		TermsDocuments: terms, ParentSellerID: p.ParentSellerID, PdfReaderAssistantID: p.PDFReaderAssistantID,
	}, nil
}

// Switches are the capabilities that are on or off, by the name the
// contract gives them after capability_.
func (c *Capabilities) Switches() map[string]*bool {
	return map[string]*bool{
		"add_custom_products": &c.AddCustomProducts, "anonymized_pricing": &c.AnonymizedPricing,
		"anonymous_ecom_offer_creation": &c.AnonymousEcomOfferCreation, "bundles": &c.Bundles,
		"dual_pricing": &c.DualPricing, "hide_buy_now": &c.HideBuyNow, "international_shipment": &c.InternationalShipment,
	}
}
