package services

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
)

// Leads stores what visitors leave without credentials: contact details
// for the operator, and remarks on an offer line's accessories.
type Leads struct {
	Store *db.Store
}

// Contact is what a visitor leaves to be contacted, with the address it
// was sent from ("" when unknown).
type Contact struct {
	Email, Company, FirstName, LastName, Phone, Website string
	ClientAddress                                       string
}

// AddContact stores a visitor's contact details for the operator.
func (l *Leads) AddContact(ctx context.Context, c Contact) error {
	return l.Store.CreateLead(ctx, dbgen.CreateLeadParams{
		ID: uuid.Must(uuid.NewV7()), Email: c.Email, Company: c.Company, FirstName: c.FirstName,
		LastName: c.LastName, Phone: c.Phone, Website: c.Website, ClientAddress: c.ClientAddress,
	})
}

// AddAccessoryFeedback stores a remark on the accessories of a line (or
// subline) of the offer, which the caller checked the offer has.
func (l *Leads) AddAccessoryFeedback(ctx context.Context, o offers.Stored, lineID, feedback string) (offers.AccessoryFeedback, error) {
	stored, err := l.Store.CreateAccessoryFeedback(ctx, dbgen.CreateAccessoryFeedbackParams{
		ID: uuid.Must(uuid.NewV7()), SellerID: o.Row.SellerID, OfferID: o.Row.ID, OfferLineID: lineID, CustomerFeedback: feedback,
	})
	if err != nil {
		return offers.AccessoryFeedback{}, err
	}
	return offers.AccessoryFeedback{ID: stored.ID, OfferID: stored.OfferID, LineID: stored.OfferLineID, Feedback: stored.CustomerFeedback}, nil
}
