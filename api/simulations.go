package api

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// maxSimulationIDs is the most ids one simulation may name.
const maxSimulationIDs = 1000

// simulations serves the sandbox scenario simulations through a dispatch
// table. The offer and order scenarios send the same updates as the
// production triggers (checkout, risk decision, cancellation).
type simulations struct {
	store       *db.Store
	environment config.Environment
	offers      *services.Offers
	orders      *services.Orders
}

// scenario runs one simulation for a seller. A *scenarioFailure says why it
// could not run; other errors are faults.
type scenario func(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error

// scenarioFailure is a simulation that could not run, e.g. an unknown id.
type scenarioFailure struct{ reason string }

func (f *scenarioFailure) Error() string { return f.reason }

func (s simulations) scenarios() map[sellerapi.RunScenarioSimulationParamsScenarioName]scenario {
	return map[sellerapi.RunScenarioSimulationParamsScenarioName]scenario{
		sellerapi.MarkProductUnsupported:        s.markProductsUnsupported,
		sellerapi.MarkShippingMethodUnsupported: s.markShippingMethodsUnsupported,
		sellerapi.MarkOfferForReview:            s.changeOffer(sellerapi.MarkOfferForReview, offer.SubmitForReview),
		sellerapi.MarkOfferAccepted:             s.changeOffer(sellerapi.MarkOfferAccepted, offer.Accept),
		sellerapi.MarkOfferDeclined:             s.changeOffer(sellerapi.MarkOfferDeclined, offer.Decline),
		sellerapi.MarkOfferVoided:               s.changeOffer(sellerapi.MarkOfferVoided, offer.Void, offer.VoidRequest{}),
		sellerapi.MarkOrderCancelled:            s.cancelOrder,
	}
}

// RunScenarioSimulation runs a scenario in the sandbox; production has none.
func (s simulations) RunScenarioSimulation(ctx context.Context, req sellerapi.RunScenarioSimulationRequestObject) (sellerapi.RunScenarioSimulationResponseObject, error) {
	if s.environment != config.Sandbox {
		return nil, NotFound("scenario simulations exist only in the sandbox")
	}
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	run, ok := s.scenarios()[req.ScenarioName]
	if !ok {
		return nil, BadRequest("unknown scenario %s", req.ScenarioName)
	}
	err = run(ctx, claims.SellerID, req.Body.ScenarioInput)
	var failure *scenarioFailure
	if errors.As(err, &failure) {
		return nil, Unprocessable("Error when simulating scenario %s: %s", req.ScenarioName, failure.reason)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.RunScenarioSimulation200Response{}, nil
}

// scenarioID reads the id of the offer or order a scenario changes.
func scenarioID(name sellerapi.RunScenarioSimulationParamsScenarioName, in sellerapi.ScenarioInput) (uuid.UUID, error) {
	if in.Id == nil {
		return uuid.Nil, BadRequest("field scenario_input.id is required for %s", name)
	}
	id, err := recordid.Parse(*in.Id)
	if err != nil {
		return uuid.Nil, BadRequest("field scenario_input.id must be a UUID, got %q", *in.Id)
	}
	return id, nil
}

// changeOffer is a scenario sending one offer update.
func (s simulations) changeOffer(name sellerapi.RunScenarioSimulationParamsScenarioName, t statemachine.Trigger, args ...any) scenario {
	return func(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
		id, err := scenarioID(name, in)
		if err != nil {
			return err
		}
		return scenarioOutcome("offer", id, s.offers.Change(ctx, sellerID, id, t, args...))
	}
}

// cancelOrder cancels an order, as the service or the customer would.
func (s simulations) cancelOrder(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
	id, err := scenarioID(sellerapi.MarkOrderCancelled, in)
	if err != nil {
		return err
	}
	_, err = s.orders.Change(ctx, sellerID, id, order.Cancel)
	return scenarioOutcome("order", id, err)
}

// scenarioOutcome turns an unknown id or a refused change into the reason
// the simulation could not run.
func scenarioOutcome(what string, id uuid.UUID, err error) error {
	var refused *refusal.Error
	switch {
	case errors.Is(err, services.ErrOfferNotFound), errors.Is(err, services.ErrOrderNotFound):
		return &scenarioFailure{reason: fmt.Sprintf("%s %s not found", what, id)}
	case errors.As(err, &refused):
		return &scenarioFailure{reason: refused.Message}
	case errors.Is(err, entity.ErrUnavailable):
		return Unavailable("the %s workflow did not confirm the change in time", what)
	}
	return err
}

// scenarioIDs reads the ids a scenario needs.
func scenarioIDs(name string, in sellerapi.ScenarioInput) ([]uuid.UUID, error) {
	if in.Ids == nil {
		return nil, BadRequest("field scenario_input.ids is required for %s", name)
	}
	raw := *in.Ids
	if len(raw) == 0 || len(raw) > maxSimulationIDs {
		return nil, BadRequest("field scenario_input.ids must list 1 to %d ids, got %d", maxSimulationIDs, len(raw))
	}
	ids := make([]uuid.UUID, len(raw))
	for i, s := range raw {
		id, err := recordid.Parse(s)
		if err != nil {
			return nil, BadRequest("field scenario_input.ids[%d] must be a UUID, got %q", i, s)
		}
		ids[i] = id
	}
	return ids, nil
}

// markAll runs an update of the seller's records with these ids in one
// transaction, which it rolls back unless every id was one of them.
func (s simulations) markAll(ctx context.Context, name, what string, in sellerapi.ScenarioInput, update func(*dbgen.Queries, []uuid.UUID) ([]uuid.UUID, error)) error {
	ids, err := scenarioIDs(name, in)
	if err != nil {
		return err
	}
	return s.store.InTx(ctx, func(q *dbgen.Queries) error {
		updated, err := update(q, ids)
		if err != nil {
			return err
		}
		done := make(map[uuid.UUID]bool, len(updated))
		for _, id := range updated {
			done[id] = true
		}
		for _, id := range ids {
			if !done[id] {
				return &scenarioFailure{reason: fmt.Sprintf("%s %s not found", what, id)}
			}
		}
		return nil
	})
}

// markProductsUnsupported makes products unfinanceable from now on.
func (s simulations) markProductsUnsupported(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
	name := string(sellerapi.MarkProductUnsupported)
	return s.markAll(ctx, name, "product", in, func(q *dbgen.Queries, ids []uuid.UUID) ([]uuid.UUID, error) {
		return q.MarkProductsUnsupported(ctx, dbgen.MarkProductsUnsupportedParams{
			SellerID: sellerID, Ids: ids, Reason: "marked unsupported by the " + name + " simulation",
		})
	})
}

// markShippingMethodsUnsupported makes shipping methods unusable in offers.
func (s simulations) markShippingMethodsUnsupported(ctx context.Context, sellerID uuid.UUID, in sellerapi.ScenarioInput) error {
	name := string(sellerapi.MarkShippingMethodUnsupported)
	return s.markAll(ctx, name, "shipping method", in, func(q *dbgen.Queries, ids []uuid.UUID) ([]uuid.UUID, error) {
		return q.MarkShippingMethodsUnsupported(ctx, dbgen.MarkShippingMethodsUnsupportedParams{SellerID: sellerID, Ids: ids})
	})
}
