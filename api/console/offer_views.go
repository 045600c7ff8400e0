package console

import (
	"strings"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/services"
)

// offerCard is an offer as the review queue lists it.
type offerCard struct {
	ID, Company, Seller, Reference string
	Created, CreatedISO            string
	PurchasePrice, Total           string
	Risk                           riskView
	// Exposure is the customer company's open exposure, ExposureOffers
	// how many offers it counts; "" when the company has no key.
	Exposure, ExposureOffers string
	// FourEyes says an acceptance takes two operators; ApprovedBy and
	// ApprovedAt name the first approval an offer awaits a second on.
	FourEyes               bool
	ApprovedBy, ApprovedAt string
	// OwnApproval says the operator looking made the first approval, and
	// so may not confirm it.
	OwnApproval bool
}

// offerDetail is an offer as its page shows it.
type offerDetail struct {
	offerCard
	Status, Channel                 string
	VATNumber, Contact              string
	BillingAddress, ShippingAddress string
	Lines                           []lineView
	InReview                        bool
	// Decisions are the operators' decisions from the audit log.
	Decisions []auditEntry
	// Timeline is everything that happened to the offer, in order.
	Timeline []timelineLine
}

// lineView is one line of an offer's basket.
type lineView struct {
	Quantity     int64
	Title, Price string
}

// riskView is the risk rules' decision in the page's language.
type riskView struct {
	Heading, Outcome, Reason, Detail string
}

// cardOf is the queue's card of an offer; fourEyes says whether
// accepting it takes two operators.
func cardOf(v view, item services.ReviewItem, fourEyes bool) offerCard {
	o, doc := item.Offer.Row, item.Offer.Document
	card := offerCard{
		ID: o.ID.String(), Company: companyOf(v, doc), Seller: item.SellerName, Reference: o.SellerOfferReference,
		Created: formatTime(o.CreatedAt), CreatedISO: isoTime(o.CreatedAt),
		PurchasePrice: v.T("offer.none"), Total: v.T("offer.none"), Risk: riskOf(v, doc.RiskReview),
	}
	if doc.Pricing != nil {
		card.PurchasePrice = net(v, doc.Pricing.InsteadOf)
		card.Total = net(v, doc.Pricing.Total)
	}
	if e := item.Exposure; e.Known {
		card.Exposure = v.Lang.Format(e.Currency, e.OpenNet)
		card.ExposureOffers = v.Tf("exposure.offers", e.Offers)
	}
	card.FourEyes = fourEyes
	if a := item.Approval; a != nil {
		card.ApprovedBy, card.ApprovedAt = a.Email, formatTime(a.At)
		card.OwnApproval = v.User != nil && a.By != nil && *a.By == v.User.ID
	}
	return card
}

// detailOf is the page of an offer.
func detailOf(v view, item services.ReviewItem, fourEyes bool) offerDetail {
	o, doc := item.Offer.Row, item.Offer.Document
	d := offerDetail{
		offerCard: cardOf(v, item, fourEyes), Status: o.Status, Channel: o.SalesChannel, InReview: o.Status == string(offers.PendingReview),
		VATNumber: v.T("offer.none"), Contact: v.T("offer.none"),
		BillingAddress: v.T("offer.none"), ShippingAddress: addressOf(v, doc.ShippingAddress),
	}
	if c := doc.Customer.Company; c != nil {
		if c.VATNumber != nil {
			d.VATNumber = *c.VATNumber
		}
		d.BillingAddress = addressOf(v, c.BillingAddress)
	}
	var contact []string
	if doc.Customer.FullName != nil {
		contact = append(contact, *doc.Customer.FullName)
	}
	if doc.Customer.Email != nil {
		contact = append(contact, *doc.Customer.Email)
	}
	if doc.Checkout != nil && doc.Checkout.EndCustomer != nil {
		ec := doc.Checkout.EndCustomer
		contact = append([]string{strings.TrimSpace(ec.FirstName + " " + ec.LastName)}, contact...)
		if ec.VATNumber != "" {
			d.VATNumber = ec.VATNumber
		}
		if ec.BillingAddress != nil {
			d.BillingAddress = addressOf(v, ec.BillingAddress)
		}
	}
	if len(contact) > 0 {
		d.Contact = strings.Join(contact, ", ")
	}
	for _, l := range doc.Lines {
		d.Lines = append(d.Lines, lineView{Quantity: l.Quantity, Title: l.Title, Price: v.Tf("offer.each", net(v, l.Price))})
	}
	return d
}

// companyOf names the customer: the company the checkout recorded, else
// the one the seller named.
func companyOf(v view, doc offers.Document) string {
	if doc.Checkout != nil && doc.Checkout.EndCustomer != nil && doc.Checkout.EndCustomer.Name != "" {
		return doc.Checkout.EndCustomer.Name
	}
	if c := doc.Customer.Company; c != nil && c.Name != nil && *c.Name != "" {
		return *c.Name
	}
	return v.T("offer.unnamed")
}

// addressOf writes an address on one line.
func addressOf(v view, a *offers.Address) string {
	if a == nil {
		return v.T("offer.none")
	}
	parts := []string{a.Line1}
	if a.Line2 != nil && *a.Line2 != "" {
		parts = append(parts, *a.Line2)
	}
	return strings.Join(append(parts, strings.TrimSpace(a.PostalCode+" "+a.City), a.CountryCode), ", ")
}

// net writes an amount's net value in the page's language.
func net(v view, m pricing.Money) string { return v.Lang.Format(m.Currency, m.Net) }

// riskOf is the stored decision of the risk rules with its reason in the
// page's language.
func riskOf(v view, r *offers.RiskReview) riskView {
	out := riskView{Heading: v.T("risk.heading")}
	if r == nil {
		out.Reason = v.T("risk.none")
		return out
	}
	out.Outcome = v.T("risk.outcome." + string(r.Outcome))
	switch v.Lang {
	case pricing.German:
		out.Reason = r.Reason.DE
	case pricing.Dutch:
		out.Reason = r.Reason.NL
	default:
		out.Reason = r.Reason.EN
	}
	out.Detail = v.Tf("risk.detail", r.RuleSetVersion, formatTime(r.DecidedAt))
	return out
}
