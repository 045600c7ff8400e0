package offers

import "github.com/google/uuid"

// AccessoryFeedback is a customer's remark on the accessories of an
// offer's line or subline.
type AccessoryFeedback struct {
	ID      uuid.UUID
	OfferID uuid.UUID
	// LineID is the line's or subline's id.
	LineID   string
	Feedback string
}
