package api

import (
	"slices"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
)

// offerFacts are what the customer operations that leave the offer alone
// read of it: from the offer's row and its document, the customer's legal
// form and language once the customer gave them.
type offerFacts struct {
	ID       uuid.UUID
	SellerID uuid.UUID
	Status   string
	// LineIDs are the ids of the offer's lines and sublines.
	LineIDs []string
	// PurchaseAmount is what buying every line would cost (gross, minor
	// units): the amount identity verification rules look at.
	PurchaseAmount int64
	LegalForm      string
	Language       string
}

func factsOf(row dbgen.Offer) (offerFacts, error) {
	stored, err := offers.Decode(row)
	if err != nil {
		return offerFacts{}, err
	}
	doc := stored.Document
	f := offerFacts{ID: row.ID, SellerID: row.SellerID, Status: row.Status}
	for _, line := range doc.Lines {
		f.LineIDs = append(f.LineIDs, line.ID)
		for _, sub := range line.Sublines {
			f.LineIDs = append(f.LineIDs, sub.ID)
		}
	}
	if doc.Pricing != nil {
		f.PurchaseAmount = doc.Pricing.InsteadOf.Gross
	}
	if e := doc.EndCustomer(); e != nil {
		f.LegalForm, f.Language = e.LegalForm, e.Language
	}
	return f, nil
}

// hasLine reports whether the offer has a line or subline of that id.
func (f offerFacts) hasLine(id string) bool { return slices.Contains(f.LineIDs, id) }
