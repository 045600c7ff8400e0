package customer

import (
	"context"
	"net/mail"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// customerLeads stores what visitors leave without credentials: contact
// details for the operator and remarks on an offer line's accessories.
type customerLeads struct {
	leads  *services.Leads
	offers *services.CustomerOffers
}

// CreateCrmContact implements createCrmContact.
func (l customerLeads) CreateCrmContact(ctx context.Context, r customerapi.CreateCrmContactRequestObject) (customerapi.CreateCrmContactResponseObject, error) {
	p := r.Body.Properties
	if a, err := mail.ParseAddress(p.Email); err != nil || a.Address != p.Email {
		return nil, apierror.BadRequest("field properties.email: must be an e-mail address such as jane@company.example")
	}
	err := l.leads.AddContact(ctx, services.Contact{
		Email: p.Email, Company: optional.Value(p.Company), FirstName: optional.Value(p.Firstname),
		LastName: optional.Value(p.Lastname), Phone: optional.Value(p.Phone), Website: optional.Value(p.Website), ClientAddress: leadAddress(ctx),
	})
	if err != nil {
		return nil, err
	}
	return customerapi.CreateCrmContact201Response{}, nil
}

// AddAccessoryFeedback implements addAccessoryFeedback. The contract lists
// 400 alone for it: an unknown offer or line is a bad field.
func (l customerLeads) AddAccessoryFeedback(ctx context.Context, r customerapi.AddAccessoryFeedbackRequestObject) (customerapi.AddAccessoryFeedbackResponseObject, error) {
	b := r.Body
	o, err := findOffer(ctx, l.offers, b.OfferId, apierror.BadRequest("field offer_id: no offer %s", b.OfferId))
	if err != nil {
		return nil, err
	}
	line := recordid.Canonical(b.OfferLineId)
	if !hasLine(o.Document, line) {
		return nil, apierror.BadRequest("field offer_line_id: offer %s has no line %s", o.Row.ID, b.OfferLineId)
	}
	stored, err := l.leads.AddAccessoryFeedback(ctx, o, line, b.CustomerFeedback)
	if err != nil {
		return nil, err
	}
	return customerapi.AddAccessoryFeedback201JSONResponse{
		Id: stored.ID.String(), OfferId: stored.OfferID.String(), OfferLineId: stored.LineID, CustomerFeedback: stored.Feedback,
	}, nil
}
