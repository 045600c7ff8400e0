// Package statemachine declares a state machine as one table of
// transitions (from, trigger, to, event), from which a workflow derives
// what it needs: which updates a status allows and the spec's refusal text
// when it does not, where each change leads and which event it announces,
// and which statuses are final.
package statemachine

import (
	"fmt"
	"slices"

	"github.com/tenurehq/tenure/domain/refusal"
)

// Trigger is what moves a state machine: an update a caller sends, or
// something the workflow itself notices (a timer firing, a review's
// verdict, what an activity found).
type Trigger struct {
	// Name names the trigger in the table and the workflow's log lines.
	Name string
	// Update is the update that fires the trigger; "" when the workflow
	// fires it itself. Several triggers may share an update when what
	// happens depends on an activity (a shipment ships some items or all).
	Update string
	// Verb completes the refusal text of the update: "declined" in
	// "offers with status=created cannot be declined".
	Verb string
	// Refusal is the kind an update the status does not allow is refused
	// with; StatusNotAllowed when left empty.
	Refusal refusal.Kind
}

// Transition is one row of a table: in status From, Trigger moves the
// entity to To, announced by the webhook event Event ("" for none).
type Transition[S ~string] struct {
	From    S
	Trigger Trigger
	To      S
	Event   string
}

// Table is a state machine: the transitions of an entity whose refusal
// texts name it as Noun ("offers").
type Table[S ~string] struct {
	Noun string
	Rows []Transition[S]
}

// Find is the transition a trigger makes from a status.
func (t Table[S]) Find(from S, trigger Trigger) (Transition[S], bool) {
	for _, r := range t.Rows {
		if r.From == from && r.Trigger.Name == trigger.Name {
			return r, true
		}
	}
	return Transition[S]{}, false
}

// Must is the transition a trigger makes from a status, for a workflow
// that has checked the status allows it (Allows); a missing row is a
// defect of the workflow, not a refusal.
func (t Table[S]) Must(from S, trigger Trigger) Transition[S] {
	r, ok := t.Find(from, trigger)
	if !ok {
		panic(fmt.Sprintf("%s: no transition %q from %s", t.Noun, trigger.Name, from))
	}
	return r
}

// Target is where a trigger leads, whatever the status it leaves; for a
// trigger whose every row leads to the same status (a defect otherwise).
func (t Table[S]) Target(trigger Trigger) S {
	var to S
	found := false
	for _, r := range t.Rows {
		if r.Trigger.Name != trigger.Name {
			continue
		}
		if found && r.To != to {
			panic(fmt.Sprintf("%s: trigger %q leads to %s and %s", t.Noun, trigger.Name, to, r.To))
		}
		to, found = r.To, true
	}
	if !found {
		panic(fmt.Sprintf("%s: no transition %q", t.Noun, trigger.Name))
	}
	return to
}

// Allows reports whether an update may be sent in a status: some trigger
// of the update leaves it.
func (t Table[S]) Allows(from S, update string) bool {
	return slices.ContainsFunc(t.Rows, func(r Transition[S]) bool { return r.From == from && r.Trigger.Update == update })
}

// Sources are the statuses an update may be sent in, in table order.
func (t Table[S]) Sources(update string) []S {
	var out []S
	for _, r := range t.Rows {
		if r.Trigger.Update == update && !slices.Contains(out, r.From) {
			out = append(out, r.From)
		}
	}
	return out
}

// Final reports whether no transition leaves a status.
func (t Table[S]) Final(s S) bool {
	return !slices.ContainsFunc(t.Rows, func(r Transition[S]) bool { return r.From == s })
}

// Refusal refuses an update the status does not allow, in the spec's
// words: "offers with status=created cannot be declined".
func (t Table[S]) Refusal(from S, update string) *refusal.Error {
	verb, kind := update, refusal.StatusNotAllowed
	for _, r := range t.Rows {
		if r.Trigger.Update == update {
			verb = r.Trigger.Verb
			if r.Trigger.Refusal != "" {
				kind = r.Trigger.Refusal
			}
			break
		}
	}
	return refusal.New(kind, "%s with status=%s cannot be %s", t.Noun, from, verb)
}
