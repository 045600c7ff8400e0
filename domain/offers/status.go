package offers

import "github.com/google/uuid"

// Status is where an offer is in its lifecycle.
type Status string

// The statuses of the spec's offer transition table.
const (
	Created       Status = "created"
	PendingReview Status = "pending_review"
	Accepted      Status = "accepted"
	Declined      Status = "declined"
	Voided        Status = "voided"
	Expired       Status = "expired"
)

// EventSource identifies the event announcing that an offer reached a
// status: offer/{id}/{status}, which is its workflow's id and the status.
// Event ids derive from it (webhook.EventID), so a retried change records
// its event once.
func EventSource(offerID uuid.UUID, status Status) string {
	return "offer/" + offerID.String() + "/" + string(status)
}
