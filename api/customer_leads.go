package api

import (
	"context"
	"net/mail"
	"net/netip"

	"github.com/gofiber/fiber/v2"

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
		return nil, BadRequest("field properties.email: must be an e-mail address such as jane@company.example")
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
	o, err := findOffer(ctx, l.offers, b.OfferId, BadRequest("field offer_id: no offer %s", b.OfferId))
	if err != nil {
		return nil, err
	}
	line := recordid.Canonical(b.OfferLineId)
	if !hasLine(o.Document, line) {
		return nil, BadRequest("field offer_line_id: offer %s has no line %s", o.Row.ID, b.OfferLineId)
	}
	stored, err := l.leads.AddAccessoryFeedback(ctx, o, line, b.CustomerFeedback)
	if err != nil {
		return nil, err
	}
	return customerapi.AddAccessoryFeedback201JSONResponse{
		Id: stored.ID.String(), OfferId: stored.OfferID.String(), OfferLineId: stored.LineID, CustomerFeedback: stored.Feedback,
	}, nil
}

type clientKey struct{}

// rememberClient keeps the client's address (see clientIP) in the request
// context of the customer operations: for the records of unauthenticated
// callers, and for the budget of failed discount codes.
func rememberClient(proxies []netip.Prefix) customerapi.StrictMiddlewareFunc {
	return func(f customerapi.StrictHandlerFunc, _ string) customerapi.StrictHandlerFunc {
		return func(c *fiber.Ctx, args any) (any, error) {
			if ip, ok := clientIP(c, proxies); ok {
				c.SetUserContext(context.WithValue(c.UserContext(), clientKey{}, ip))
			}
			return f(c, args)
		}
	}
}

// leadAddress is the client address rememberClient kept, "" if none.
func leadAddress(ctx context.Context) string {
	if ip, ok := ctx.Value(clientKey{}).(netip.Addr); ok {
		return ip.String()
	}
	return ""
}

// countedAddress is the client address rememberClient kept, as the rate
// limits count it.
func countedAddress(ctx context.Context) string {
	if ip, ok := ctx.Value(clientKey{}).(netip.Addr); ok {
		return countedAs(ip)
	}
	return unknownAddress
}
