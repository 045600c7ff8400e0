package offers

import (
	"time"

	"github.com/google/uuid"
)

// Draft is a validated, priced offer ready to be stored: its document and
// the columns its row is found by; everything but what its workflow
// decides. Drafts travel in the offer workflow's create and edit updates.
type Draft struct {
	ID                   uuid.UUID
	SellerID             uuid.UUID
	SellerOfferReference string
	SalesChannel         string
	ExpiresAt            time.Time
	// CreatedBy is the sales agent's e-mail, for the created_by filter.
	CreatedBy string
	// Partner marks offers created for a partner (POST /v1/offers/partners).
	Partner bool
	// ExitRedirect and SuccessRedirect are where the checkout sends the
	// customer; the Seller API does not return them.
	ExitRedirect    string
	SuccessRedirect string
	Document        Document
}
