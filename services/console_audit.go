package services

import (
	"context"
	"errors"
	"slices"

	"github.com/tenurehq/tenure/domain/console"
)

// outcomeOf is how an action ended: succeeded without an error, refused
// when the error is a rule's refusal, failed otherwise.
func outcomeOf(err error, refused bool) console.Outcome {
	switch {
	case err == nil:
		return console.Succeeded
	case refused:
		return console.Refused
	}
	return console.Failed
}

// oneOf says whether err is one of the refusals.
func oneOf(err error, refusals ...error) bool {
	return slices.ContainsFunc(refusals, func(r error) bool { return errors.Is(err, r) })
}

// audited writes an action of who and how it ended to the audit log and
// returns the action's error, joined with the log's if that failed.
func (c *Console) audited(ctx context.Context, who console.Actor, action, target, detail string, outcome console.Outcome, err error) error {
	if auditErr := c.Accounts.Audit(ctx, who.Entry(action, target, detail, outcome)); auditErr != nil {
		return errors.Join(err, auditErr)
	}
	return err
}
