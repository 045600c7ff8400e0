package offer

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/sellerapi"
)

// Draft is a validated, priced offer ready to be stored: everything the
// Seller API returns for it except what its workflow decides (status and
// the moments of its transitions).
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
	Document        sellerapi.Offer
}
