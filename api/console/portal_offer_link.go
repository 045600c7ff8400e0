package console

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// offerLinkView is the page that hands an offer's checkout link over.
type offerLinkView struct {
	ID, Reference, Company, Status, Channel, Expires, ExpiresISO string
	CheckoutURL, QR                                              string
	Lines                                                        []lineView
	Terms                                                        []termView
	// Open says the customer can still check out.
	Open bool
}

// portalOffer shows an offer of the seller with its checkout link to
// copy, and the link's QR code for the customer at the counter.
func (s *server) portalOffer(c *fiber.Ctx) error {
	o, ok, err := s.sellerOffer(c)
	if !ok {
		return err
	}
	v := s.view(c, "portal_offer.link_title")
	if c.Query("done") == "created" {
		v.Notice = v.T("portal_offer.created")
	}
	doc := o.Document
	data := offerLinkView{
		ID: o.Row.ID.String(), Reference: o.Row.SellerOfferReference, Company: companyOf(v, doc), Status: v.T("portal_offer.status." + o.Row.Status),
		Channel: v.T("portal_offer.channel." + o.Row.SalesChannel), Expires: formatTime(o.Row.ExpiresAt), ExpiresISO: isoTime(o.Row.ExpiresAt),
		CheckoutURL: doc.CheckoutURL, QR: Base + "/portal/offers/" + o.Row.ID.String() + "/qr.png",
		Open: o.Row.Status == string(offers.Created),
	}
	for _, l := range doc.Lines {
		data.Lines = append(data.Lines, lineView{Quantity: l.Quantity, Title: l.Title, Price: v.Tf("offer.each", net(v, l.Price))})
	}
	if doc.Pricing != nil {
		data.Terms = monthlyTerms(v, *doc.Pricing)
	}
	v.Title = v.T("portal_offer.link_title") + ": " + data.Company
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "portal_offer.html", v)
}

// portalOfferQR is the QR code of an offer's checkout link, as a PNG.
func (s *server) portalOfferQR(c *fiber.Ctx) error {
	o, ok, err := s.sellerOffer(c)
	if !ok {
		return err
	}
	return s.sendQR(c, o.Document.CheckoutURL)
}

// sellerOffer reads the offer the path names among the seller's; another
// seller's offer, or none, is answered 404 (ok false with the answer's
// error).
func (s *server) sellerOffer(c *fiber.Ctx) (offers.Stored, bool, error) {
	_, sellerID, err := portalSeller(c)
	if err != nil {
		return offers.Stored{}, false, s.failed(c, err)
	}
	id, err := recordid.Parse(c.Params("offer"))
	if err != nil {
		return offers.Stored{}, false, s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	o, err := s.Service.Offers.Get(c.UserContext(), sellerID, id)
	switch {
	case errors.Is(err, services.ErrOfferNotFound):
		return offers.Stored{}, false, s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case err != nil:
		return offers.Stored{}, false, s.failed(c, err)
	}
	return o, true, nil
}
