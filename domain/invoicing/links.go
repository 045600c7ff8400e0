package invoicing

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/foundation/links"
)

// linkPurpose is what a customer's invoice link is signed for: a token of
// another link (an offer's, an upload's) opens no invoice.
const linkPurpose = "tenure invoice download"

// CustomerLinks makes and checks the signed links at which an invoice's
// customer downloads its PDF without an account: the link the
// invoice.issued event carries, as the checkout's link is the offer's.
type CustomerLinks struct {
	Signer *links.Signer
	// PublicURL is where the API is reached (http.public_url).
	PublicURL string
	// TTL is how long a link opens its invoice (invoicing.link_ttl).
	TTL time.Duration
}

// CustomerPath is the path of an invoice's link, before its token.
func CustomerPath(id uuid.UUID) string { return "/downloads/invoices/" + id.String() + "/invoice.pdf" }

// URL is the customer's link to an invoice, valid for TTL from now.
func (l CustomerLinks) URL(id uuid.UUID, now time.Time) string {
	return l.PublicURL + CustomerPath(id) + "?token=" + l.Signer.Sign(linkPurpose, id.String(), now.Add(l.TTL))
}

// Verify checks a link's token for an invoice: made for it and not
// expired.
func (l CustomerLinks) Verify(id uuid.UUID, token string) error {
	return l.Signer.Verify(linkPurpose, id.String(), token)
}

// EventSource identifies an invoice's issue to the event announcing it
// ("invoice/<id>/issued"): the source of the event's id.
func EventSource(id uuid.UUID) string { return "invoice/" + id.String() + "/issued" }
