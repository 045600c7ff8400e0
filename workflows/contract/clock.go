package contract

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/foundation/civil"
)

// clock is a contract's clock: the workflow's time moved ahead by the
// contract's offset, read in the contract's location.
type clock struct {
	loc    *time.Location
	offset *time.Duration
}

// today is the day on the contract's clock.
func (c clock) today(ctx workflow.Context) civil.Date { return c.dayOf(workflow.Now(ctx)) }

// dayOf is the day of the contract's clock a real instant falls on (a
// shipment's, say).
func (c clock) dayOf(t time.Time) civil.Date { return civil.DateOf(t.Add(*c.offset).In(c.loc)) }

// wakeAt is the real instant a day of the contract's clock begins: the
// timer for the day fires then.
func (c clock) wakeAt(d civil.Date) time.Time { return d.Midnight(c.loc).Add(-*c.offset) }

// offsetTo is the offset that makes the contract's clock read the start of
// a day now.
func (c clock) offsetTo(ctx workflow.Context, d civil.Date) time.Duration {
	return d.Midnight(c.loc).Sub(workflow.Now(ctx))
}
