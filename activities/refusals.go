package activities

import (
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/domain/refusal"
)

// refuse fails an activity with a refusal, for good: the workflow's caller
// gets it back (entity.RefusalOf) and answers it in the contract's words.
func refuse(r *refusal.Error) error {
	return temporal.NewNonRetryableApplicationError(r.Message, string(r.Kind), nil)
}
