package services

import (
	"context"

	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// explainUpdate turns what an entity workflow answered to an update into
// the service's errors: the workflow's refusal; for a workflow that has
// ended (its entity is final), the refusal its transition table gives for
// the status stored now; no answer in time as entity.ErrUnavailable;
// anything else is a fault.
func explainUpdate[S ~string](ctx context.Context, err error, table statemachine.Table[S], update string, status func(context.Context) (S, error)) error {
	if err == nil {
		return nil
	}
	if r, ok := entity.RefusalOf(err); ok {
		return r
	}
	if entity.Ended(err) {
		current, statusErr := status(context.WithoutCancel(ctx))
		if statusErr != nil {
			return statusErr
		}
		return table.Refusal(current, update)
	}
	if entity.TimedOut(err) {
		return entity.ErrUnavailable
	}
	return err
}
