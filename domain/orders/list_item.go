package orders

import (
	"time"

	"github.com/google/uuid"
)

// ListItem is an order as the seller's lists of orders show it: whose
// offer it comes from and who it is for, without its lines.
type ListItem struct {
	ID                   uuid.UUID
	OfferID              uuid.UUID
	SellerOfferReference string
	Status               Status
	AgentName            string
	CompanyName          string
	FullName             string
	CreatedAt            time.Time
}
