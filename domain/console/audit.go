package console

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Outcome is how an audited action ended.
type Outcome string

// The outcomes of an action: done, refused by a rule (a decided offer,
// say), or failed for another reason.
const (
	Succeeded Outcome = "succeeded"
	Refused   Outcome = "refused"
	Failed    Outcome = "failed"
)

// Entry is one line of the audit log.
type Entry struct {
	// ID and At order the log (newest first) and page through it.
	ID uuid.UUID
	At time.Time
	// Actor is the account that acted; ActorEmail names it even when the
	// account is gone.
	Actor      *uuid.UUID
	ActorEmail string
	// Action names what was done, e.g. "offer.accept".
	Action string
	// Target is what it was done to, e.g. "offer 0192…".
	Target string
	// Detail is what the actor gave, e.g. a decline's reason.
	Detail  string
	Outcome Outcome
	// Address and RequestID say where the request came from and which it was.
	Address, RequestID string
}

// Audit appends an entry to the audit log.
func (a *Accounts) Audit(ctx context.Context, e Entry) error {
	return a.Store.AppendConsoleAudit(ctx, dbgen.AppendConsoleAuditParams{
		ID: uuid.Must(uuid.NewV7()), ActorID: e.Actor, ActorEmail: e.ActorEmail, Action: e.Action, Target: e.Target,
		Detail: e.Detail, Outcome: string(e.Outcome), Address: e.Address, RequestID: e.RequestID,
	})
}

// afterEveryEntry is the cursor of the audit log's first page. The
// database stamps an entry with its own clock, so a bound from the
// caller's clock (a test's fixed one, a host's that lags) would hide the
// entries stamped after it.
var afterEveryEntry = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)

// AuditPageSize is how many entries a page of the audit log shows.
const AuditPageSize = 50

// AuditLog is a page of the audit log, newest first, of one action (""
// for all), before the entry (beforeAt, beforeID) or from the newest
// when beforeAt is zero.
func (a *Accounts) AuditLog(ctx context.Context, action string, beforeAt time.Time, beforeID uuid.UUID) ([]Entry, error) {
	if beforeAt.IsZero() {
		beforeAt, beforeID = afterEveryEntry, uuid.Max
	}
	rows, err := a.Store.ListConsoleAudit(ctx, dbgen.ListConsoleAuditParams{
		BeforeAt: beforeAt, BeforeID: beforeID, Action: action, PageSize: AuditPageSize,
	})
	if err != nil {
		return nil, err
	}
	return entriesOf(rows), nil
}

// AuditOf is what was done to a target, oldest first (at most 100
// entries).
func (a *Accounts) AuditOf(ctx context.Context, target string) ([]Entry, error) {
	rows, err := a.Store.ListConsoleAuditOfTarget(ctx, target)
	if err != nil {
		return nil, err
	}
	return entriesOf(rows), nil
}

func entriesOf(rows []dbgen.ConsoleAudit) []Entry {
	out := make([]Entry, len(rows))
	for i, r := range rows {
		out[i] = Entry{ID: r.ID, At: r.At, Actor: r.ActorID, ActorEmail: r.ActorEmail, Action: r.Action, Target: r.Target,
			Detail: r.Detail, Outcome: Outcome(r.Outcome), Address: r.Address, RequestID: r.RequestID}
	}
	return out
}

// Actor is who acts in the console, and from where: what every audit
// entry of their request repeats.
type Actor struct {
	User               User
	Address, RequestID string
}

// Entry is the audit entry of an action of the actor.
func (a Actor) Entry(action, target, detail string, outcome Outcome) Entry {
	return Entry{Actor: &a.User.ID, ActorEmail: a.User.Email, Action: action, Target: target, Detail: detail,
		Outcome: outcome, Address: a.Address, RequestID: a.RequestID}
}
