package services

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// TimelineKind is what a line of a record's timeline records.
type TimelineKind string

// The kinds of timeline lines.
const (
	// TimelineStatus is a status change or moment the record's own rows
	// keep (created, shipped, an installment failed, a collection paid).
	TimelineStatus TimelineKind = "status"
	// TimelineEvent is an event written to the outbox for the sellers'
	// webhooks.
	TimelineEvent TimelineKind = "event"
	// TimelineDelivery is one attempt to deliver an event to an endpoint.
	TimelineDelivery TimelineKind = "delivery"
	// TimelineAction is an operator's action from the audit log.
	TimelineAction TimelineKind = "action"
)

// TimelineEntry is one line of a record's timeline.
type TimelineEntry struct {
	At   time.Time
	Kind TimelineKind
	// What names the line: a status, an event's type, a delivery's
	// outcome, an audited action.
	What string
	// Detail adds what the line has beyond its name: the record it is
	// about, a reason, an endpoint and its answer, an operator.
	Detail string
	// Record is the record the line is about (the contract of an order's
	// timeline, say); uuid.Nil when it is the timeline's own.
	Record uuid.UUID
	// Failed marks a line that went wrong: a failed delivery attempt, a
	// refused or failed action.
	Failed bool
}

// TimelineOf names what a record's timeline is assembled from; the record
// itself gives its moments, the outbox and the audit log the rest.
type TimelineOf struct {
	SellerID uuid.UUID
	// Records are the ids whose events, with their delivery attempts,
	// belong on the timeline: the record's own and those of records it
	// holds (an order's invoices).
	Records []uuid.UUID
	// AuditTargets are the audit log's names of the record, e.g. "offer …".
	AuditTargets []string
	// Moments are the status changes the record's rows keep.
	Moments []TimelineEntry
}

// Timeline assembles a record's timeline, oldest first: its moments, the
// events about it and its records (at most 500), every delivery attempt
// of those events, and the operators' actions on it. Lines of one moment
// keep the order they are given in: moments, events, attempts, actions.
func (c *Console) Timeline(ctx context.Context, of TimelineOf) ([]TimelineEntry, error) {
	out := slices.Clone(of.Moments)
	q := c.Offers.Store.Queries
	events, err := q.ListEventsOfObjects(ctx, dbgen.ListEventsOfObjectsParams{SellerID: of.SellerID, ObjectIds: of.Records})
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, len(events))
	for i, e := range events {
		ids[i] = e.ID
		out = append(out, TimelineEntry{At: e.CreatedAt, Kind: TimelineEvent, What: e.Type, Record: e.ObjectID})
	}
	attempts, err := q.ListAttemptsOfEvents(ctx, ids)
	if err != nil {
		return nil, err
	}
	types := make(map[uuid.UUID]dbgen.ListEventsOfObjectsRow, len(events))
	for _, e := range events {
		types[e.ID] = e
	}
	for _, a := range attempts {
		e := types[a.EventID]
		out = append(out, TimelineEntry{
			At: a.StartedAt, Kind: TimelineDelivery, What: a.Outcome, Record: e.ObjectID,
			Detail: deliveryDetail(e.Type, a), Failed: a.Outcome != "delivered" && a.Outcome != "sending",
		})
	}
	for _, target := range of.AuditTargets {
		entries, err := c.Accounts.AuditOf(ctx, target)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			detail := e.ActorEmail
			if e.Detail != "" {
				detail += ": " + e.Detail
			}
			out = append(out, TimelineEntry{At: e.At, Kind: TimelineAction, What: e.Action, Detail: detail, Failed: e.Outcome != "succeeded"})
		}
	}
	slices.SortStableFunc(out, func(a, b TimelineEntry) int { return a.At.Compare(b.At) })
	return out, nil
}

// deliveryDetail says which event an attempt sent, where, and what came
// back.
func deliveryDetail(eventType string, a dbgen.ListAttemptsOfEventsRow) string {
	detail := eventType + " → " + a.EndpointUrl
	if a.StatusCode != nil {
		detail += fmt.Sprintf(" · HTTP %d", *a.StatusCode)
	}
	if a.ErrorClass != nil && *a.ErrorClass != "" {
		detail += " · " + *a.ErrorClass
	}
	return detail
}
