package contract

import (
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/entity"
)

// settleCollection applies the bank's notice about a collection: the
// contract falls into arrears when a return leaves it owing a failed
// installment (the reminder stages start from its today) and leaves them
// when nothing failed is owed any more. A defaulted contract stays
// defaulted until an operator decides.
func (w *contractWorkflow) settleCollection(ctx workflow.Context, req CollectionRequest) (CollectionAnswer, error) {
	var out CollectionAnswer
	err := w.change(ctx, SettleCollection, func(ctx workflow.Context) error {
		row := Transitions.Must(w.state.Status, SettleCollection)
		got, err := entity.PersistResult(ctx, a.SettleCollection, activities.ContractCollection{
			ContractTransition: w.transition(ctx, row), Notice: req.Notice,
		})
		if err != nil {
			return err
		}
		out.Changed, out.InArrears = got.Changed, got.InArrears
		switch {
		case got.InArrears && w.state.Arrears == nil:
			w.state.Arrears = &Arrears{Since: w.clock.today(ctx), Days: w.input.Settings.dunningDays()}
		case !got.InArrears:
			w.state.Arrears = nil
		}
		return w.progressed(ctx, row, got.Progress)
	})
	out.Answer = w.answer(ctx)
	return out, err
}

// remind takes the arrears' next reminder stage; the last defaults the
// contract.
func (w *contractWorkflow) remind(ctx workflow.Context, in activities.ContractTransition) (activities.ContractProgress, error) {
	arrears := w.state.Arrears
	p, err := entity.PersistResult(ctx, a.Remind, activities.ContractReminder{
		ContractTransition: in, Stage: arrears.Stage + 1, Since: arrears.Since,
	})
	if err == nil {
		arrears.Stage++
	}
	return p, err
}

func (w *contractWorkflow) writeOff(ctx workflow.Context) (Answer, error) {
	err := w.change(ctx, WriteOff, func(ctx workflow.Context) error {
		row := Transitions.Must(w.state.Status, WriteOff)
		p, err := entity.PersistResult(ctx, a.WriteOff, w.transition(ctx, row))
		if err != nil {
			return err
		}
		w.state.Arrears = nil
		return w.progressed(ctx, row, p)
	})
	return w.answer(ctx), err
}

func (w *contractWorkflow) terminateAndClaim(ctx workflow.Context) (Answer, error) {
	err := w.change(ctx, TerminateAndClaim, func(ctx workflow.Context) error {
		row := Transitions.Must(w.state.Status, TerminateAndClaim)
		p, err := entity.PersistResult(ctx, a.TerminateAndClaim, w.transition(ctx, row))
		if err != nil {
			return err
		}
		return w.progressed(ctx, row, p)
	})
	return w.answer(ctx), err
}
