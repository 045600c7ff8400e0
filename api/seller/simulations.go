package seller

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// maxSimulationIDs is the most ids one simulation may name.
const maxSimulationIDs = 1000

// simulations serves the sandbox scenario simulations through a dispatch
// table. The offer and order scenarios are the services' changes that the
// production triggers make (checkout, risk decision, cancellation); the
// contract scenarios start a term without a shipment and move a contract's
// clock.
type simulations struct {
	environment config.Environment
	offers      *services.Offers
	orders      *services.Orders
	contracts   *services.Contracts
	simulations *services.Simulations
}

// scenario runs one simulation for a seller. A *scenarioFailure says why it
// could not run; other errors are faults.
type scenario func(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error

// scenarioFailure is a simulation that could not run, e.g. an unknown id.
type scenarioFailure struct{ reason string }

func (f *scenarioFailure) Error() string { return f.reason }

func (s simulations) scenarios() map[sellerapi.RunScenarioSimulationParamsScenarioName]scenario {
	return map[sellerapi.RunScenarioSimulationParamsScenarioName]scenario{
		sellerapi.MarkProductUnsupported:        markAll(sellerapi.MarkProductUnsupported, s.markProductsUnsupported),
		sellerapi.MarkShippingMethodUnsupported: markAll(sellerapi.MarkShippingMethodUnsupported, s.simulations.MarkShippingMethodsUnsupported),
		sellerapi.MarkOfferForReview:            s.changeOffer(sellerapi.MarkOfferForReview, s.offers.SubmitForReview),
		sellerapi.MarkOfferAccepted:             s.changeOffer(sellerapi.MarkOfferAccepted, s.offers.Accept),
		sellerapi.MarkOfferDeclined:             s.changeOffer(sellerapi.MarkOfferDeclined, s.offers.Decline),
		sellerapi.MarkOfferVoided:               s.changeOffer(sellerapi.MarkOfferVoided, s.voidOffer),
		sellerapi.MarkOrderCancelled:            s.cancelOrder,
		sellerapi.MarkContractStarted:           s.markContractStarted,
		sellerapi.AdvanceContractClock:          s.advanceContractClock,
		sellerapi.MarkInstallmentPaid:           s.markInstallmentPaid,
		sellerapi.MarkInstallmentFailed:         s.markInstallmentFailed,
	}
}

// RunScenarioSimulation runs a scenario in the sandbox; production has none.
func (s simulations) RunScenarioSimulation(ctx context.Context, req sellerapi.RunScenarioSimulationRequestObject) (sellerapi.RunScenarioSimulationResponseObject, error) {
	if s.environment != config.Sandbox {
		return nil, apierror.NotFound("scenario simulations exist only in the sandbox")
	}
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	run, ok := s.scenarios()[req.ScenarioName]
	if !ok {
		return nil, apierror.BadRequest("unknown scenario %s", req.ScenarioName)
	}
	err = run(ctx, claims.SellerID, req.Body.ScenarioInput)
	var failure *scenarioFailure
	if errors.As(err, &failure) {
		return nil, apierror.Unprocessable("Error when simulating scenario %s: %s", req.ScenarioName, failure.reason)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.RunScenarioSimulation200Response{}, nil
}

// scenarioID reads the id of the offer or order a scenario changes.
func scenarioID(name sellerapi.RunScenarioSimulationParamsScenarioName, in sellerapi.ScenarioInput) (uuid.UUID, error) {
	if in.Id == nil {
		return uuid.Nil, apierror.BadRequest("field scenario_input.id is required for %s", name)
	}
	id, err := recordid.Parse(*in.Id)
	if err != nil {
		return uuid.Nil, apierror.BadRequest("field scenario_input.id must be a UUID, got %q", *in.Id)
	}
	return id, nil
}

// changeOffer is a scenario making one change of the offer service.
func (s simulations) changeOffer(name sellerapi.RunScenarioSimulationParamsScenarioName, change func(context.Context, uuid.UUID, uuid.UUID) error) scenario {
	return func(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
		id, err := scenarioID(name, in)
		if err != nil {
			return err
		}
		return scenarioOutcome("offer", id, change(ctx, sellerID, id))
	}
}

// voidOffer voids an offer without naming one that supersedes it.
func (s simulations) voidOffer(ctx context.Context, sellerID, offerID uuid.UUID) error {
	_, err := s.offers.Void(ctx, sellerID, offerID, nil)
	return err
}

// cancelOrder cancels an order, as the service or the customer would.
func (s simulations) cancelOrder(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
	id, err := scenarioID(sellerapi.MarkOrderCancelled, in)
	if err != nil {
		return err
	}
	_, err = s.orders.Cancel(ctx, sellerID, id)
	return scenarioOutcome("order", id, err)
}

// markContractStarted starts a contract's term on its today, as the
// shipment of its last asset would.
func (s simulations) markContractStarted(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
	id, err := scenarioID(sellerapi.MarkContractStarted, in)
	if err != nil {
		return err
	}
	_, err = s.contracts.MarkStarted(ctx, sellerID, id)
	return scenarioOutcome("contract", id, err)
}

// advanceContractClock moves a contract's clock forward by months or to a
// day, firing everything due on the way.
func (s simulations) advanceContractClock(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
	id, err := scenarioID(sellerapi.AdvanceContractClock, in)
	if err != nil {
		return err
	}
	months, to, err := clockAdvance(in)
	if err != nil {
		return err
	}
	_, err = s.contracts.AdvanceClock(ctx, sellerID, id, months, to)
	return scenarioOutcome("contract", id, err)
}

// markInstallmentPaid settles the contract's oldest collection under way
// as paid, as the bank's notification would.
func (s simulations) markInstallmentPaid(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
	id, err := scenarioID(sellerapi.MarkInstallmentPaid, in)
	if err != nil {
		return err
	}
	_, err = s.contracts.SimulateCollection(ctx, sellerID, id, "")
	return scenarioOutcome("contract", id, err)
}

// markInstallmentFailed returns the contract's oldest collection under way
// with a return reason, as the bank's notification would.
func (s simulations) markInstallmentFailed(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
	id, err := scenarioID(sellerapi.MarkInstallmentFailed, in)
	if err != nil {
		return err
	}
	if in.Reason == nil || *in.Reason == "" {
		return apierror.BadRequest("field scenario_input.reason is required for %s: an ISO 20022 return reason such as AM04", sellerapi.MarkInstallmentFailed)
	}
	reason := sepa.ReturnReason(*in.Reason)
	if !reason.Known() {
		return apierror.BadRequest("field scenario_input.reason %q is not a SEPA return reason; use one such as AM04 (insufficient funds), AC04 (account closed) or MD01 (no mandate)", *in.Reason)
	}
	_, err = s.contracts.SimulateCollection(ctx, sellerID, id, reason)
	return scenarioOutcome("contract", id, err)
}

// clockAdvance reads how far advance_contract_clock moves the clock: by
// months (1 to contracts.MaxClockAdvanceMonths) or to a day, exactly one of
// them. Whether the day is after the contract's today is the workflow's to
// say.
func clockAdvance(in sellerapi.ScenarioInput) (int, *civil.Date, error) {
	switch {
	case in.Months != nil && in.To != nil:
		return 0, nil, apierror.BadRequest("fields scenario_input.months and scenario_input.to exclude each other: give one of them for %s", sellerapi.AdvanceContractClock)
	case in.Months == nil && in.To == nil:
		return 0, nil, apierror.BadRequest("field scenario_input.months or scenario_input.to is required for %s", sellerapi.AdvanceContractClock)
	case in.To != nil:
		day := civil.DateOf(in.To.Time)
		return 0, &day, nil
	case *in.Months < 1 || *in.Months > contracts.MaxClockAdvanceMonths:
		return 0, nil, apierror.BadRequest("field scenario_input.months must be between 1 and %d, got %d", contracts.MaxClockAdvanceMonths, *in.Months)
	}
	return int(*in.Months), nil, nil
}

// scenarioOutcome turns an unknown id or a refused change into the reason
// the simulation could not run.
func scenarioOutcome(what string, id uuid.UUID, err error) error {
	var refused *refusal.Error
	switch {
	case errors.Is(err, services.ErrOfferNotFound), errors.Is(err, services.ErrOrderNotFound), errors.Is(err, services.ErrContractNotFound):
		return &scenarioFailure{reason: fmt.Sprintf("%s %s not found", what, id)}
	case errors.As(err, &refused):
		return &scenarioFailure{reason: refused.Message}
	case errors.Is(err, services.ErrUnavailable):
		return apierror.Unavailable("the %s workflow did not confirm the change in time", what)
	}
	return err
}

// scenarioIDs reads the ids a scenario needs.
func scenarioIDs(name string, in sellerapi.ScenarioInput) ([]uuid.UUID, error) {
	if in.Ids == nil {
		return nil, apierror.BadRequest("field scenario_input.ids is required for %s", name)
	}
	raw := *in.Ids
	if len(raw) == 0 || len(raw) > maxSimulationIDs {
		return nil, apierror.BadRequest("field scenario_input.ids must list 1 to %d ids, got %d", maxSimulationIDs, len(raw))
	}
	ids := make([]uuid.UUID, len(raw))
	for i, s := range raw {
		id, err := recordid.Parse(s)
		if err != nil {
			return nil, apierror.BadRequest("field scenario_input.ids[%d] must be a UUID, got %q", i, s)
		}
		ids[i] = id
	}
	return ids, nil
}

// markAll is a scenario making every record the input names unsupported,
// or none when one of them is unknown.
func markAll(name sellerapi.RunScenarioSimulationParamsScenarioName, mark func(context.Context, uuid.UUID, []uuid.UUID) error) scenario {
	return func(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
		ids, err := scenarioIDs(string(name), in)
		if err != nil {
			return err
		}
		err = mark(ctx, sellerID, ids)
		var unknown *services.UnknownRecord
		if errors.As(err, &unknown) {
			return &scenarioFailure{reason: unknown.Error()}
		}
		return err
	}
}

// markProductsUnsupported makes products unfinanceable from now on.
func (s simulations) markProductsUnsupported(ctx context.Context, sellerID uuid.UUID, ids []uuid.UUID) error {
	return s.simulations.MarkProductsUnsupported(ctx, sellerID, ids, string(sellerapi.MarkProductUnsupported))
}
