package console

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/foundation/recordid"
)

// offerRow is an offer as the portal's list shows it.
type offerRow struct {
	ID, Company, Reference, Status, Channel, Agent, Total, Created, CreatedISO string
}

// offerListView is the list's own data: its filter and a page.
type offerListView struct {
	Query  string
	Mine   bool
	Offers []offerRow
	// Older is the address of the next, older page; "" on the last.
	Older string
}

// portalOffers lists the seller's offers, newest first, made in the
// portal or through the API, matching the search and, when asked, made
// by the user; a page older than the offer the before parameter names.
func (s *server) portalOffers(c *fiber.Ctx) error {
	u, sellerID, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	data := offerListView{Query: strings.TrimSpace(c.Query("q")), Mine: c.Query("mine") == "1"}
	f := listing.Filter{Query: data.Query, Descending: true, Limit: portalPageSize}
	if data.Mine {
		f.CreatedBy = []string{strings.ToLower(u.Email)}
	}
	if before := c.Query("before"); before != "" {
		id, err := recordid.Parse(before)
		if err != nil {
			return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
		}
		f.IDLt = &id
	}
	list, err := s.Service.Offers.Newest(c.UserContext(), sellerID, f)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal_offer.list_title")
	for _, o := range list {
		row := offerRow{ID: o.Row.ID.String(), Company: companyOf(v, o.Document), Reference: o.Row.SellerOfferReference,
			Status: v.T("portal_offer.status." + o.Row.Status), Channel: v.T("portal_offer.channel." + o.Row.SalesChannel),
			Agent: o.Row.CreatedBy, Total: v.T("offer.none"), Created: formatTime(o.Row.CreatedAt), CreatedISO: isoTime(o.Row.CreatedAt)}
		if p := o.Document.Pricing; p != nil {
			row.Total = net(v, p.InsteadOf)
		}
		data.Offers = append(data.Offers, row)
	}
	if len(list) == portalPageSize {
		q := url.Values{"before": {list[len(list)-1].Row.ID.String()}}
		if data.Query != "" {
			q.Set("q", data.Query)
		}
		if data.Mine {
			q.Set("mine", "1")
		}
		data.Older = Base + "/portal/offers?" + q.Encode()
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "portal_offers.html", v)
}
