package contract

import (
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// step is a change the contract's clock makes on a day: an installment
// falling due, the notice, the end of the term, another month.
type step struct {
	trigger statemachine.Trigger
	on      civil.Date
}

// nextStep is the contract's next change of the clock, if it has one: the
// earliest of its next installment's due date, its notice date (running),
// the day after its end date (ending or monthly with every asset back: the
// return completes; ending otherwise: the contract goes on month by month)
// and the day after its schedule's end (monthly: another month), and, in
// arrears, its next reminder stage. Of two on the same day, the
// installment falls due first.
func nextStep(s State) (step, bool) {
	p := s.Progress
	var steps []step
	add := func(t statemachine.Trigger, on *civil.Date, days int) {
		if on != nil {
			steps = append(steps, step{trigger: t, on: on.AddDays(days)})
		}
	}
	if s.Status.Active() {
		add(FallDue, p.NextDue, 0)
	}
	switch {
	case s.Status == contracts.Running:
		add(GiveNotice, p.NoticeDate, 0)
	case (s.Status == contracts.Ending || s.Status == contracts.Monthly) && p.AllReturned():
		add(CompleteReturn, p.EndDate, 1)
	case s.Status == contracts.Ending:
		add(EndWithoutChoice, p.EndDate, 1)
	case s.Status == contracts.Monthly:
		add(Grow, p.ScheduleEnd, 1)
	}
	if a := s.Arrears; a != nil && s.Status.Active() && a.Stage < len(a.Days) {
		t := Remind
		if a.Stage == len(a.Days)-1 {
			t = Default
		}
		add(t, &a.Since, a.Days[a.Stage])
	}
	if len(steps) == 0 {
		return step{}, false
	}
	first := steps[0]
	for _, st := range steps[1:] {
		if st.on.Before(first.on) {
			first = st
		}
	}
	return first, true
}

// fallingThrough is the last day whose installments fall due in one go
// when the clock reads today: today, or the day of the next other change if
// that comes first (the installments due on a notice date fall due before
// the notice).
func fallingThrough(s State, today civil.Date) civil.Date {
	through := today
	without := s
	without.Progress.NextDue = nil
	if next, ok := nextStep(without); ok && next.on.Before(through) {
		through = next.on
	}
	return through
}
