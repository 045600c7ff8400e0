package contracts

import "github.com/google/uuid"

// EventSource is what identifies a change of a contract an event announces
// ("contract/<id>/installment/7/due"): the source of the event's id, the
// same for the same change however often it is recorded.
func EventSource(contractID uuid.UUID, what string) string {
	return "contract/" + contractID.String() + "/" + what
}
