package guard_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/workflows/offer"
)

// reservedID is the resource id a key reserved.
func reservedID(t *testing.T, h *apitest.Harness, key string) uuid.UUID {
	t.Helper()
	var id uuid.UUID
	if err := h.Store.Pool.QueryRow(t.Context(), "SELECT resource_id FROM idempotency_keys WHERE key = $1", key).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// A creation whose workflow ended without an offer (refused inside it, or
// never created) and whose process died before recording the answer is
// resumed by the retry: it answers the refusal the workflow recorded, or
// that the offer could not be created, never a 500, and makes no offer.
func TestResumedCreationWhoseWorkflowEndedWithoutAnOffer(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	sellerID := f.Seller.Seller.ID
	for _, c := range []struct {
		name string
		// firstAttempt leaves what a first attempt that died left: the
		// offer's workflow, ended without an offer.
		firstAttempt func(t *testing.T, id uuid.UUID, reference string)
		wantName     string
		// wantMessage is the answer's message for the offer's reference.
		wantMessage func(reference string) string
	}{
		{"refused in its workflow", func(t *testing.T, id uuid.UUID, reference string) {
			// The workflow's creation finds the reference held by an
			// active offer: the race the builder's check cannot close.
			draft := offers.Draft{ID: id, SellerID: sellerID, SellerOfferReference: reference, SalesChannel: "ecommerce", ExpiresAt: time.Now().Add(time.Hour)}
			start := h.Temporal.NewWithStartWorkflowOperation(offer.StartOptions(id, sellerID, reference), offer.Offer,
				offer.Input{OfferID: id, SellerID: sellerID, Review: offers.ReviewBySimulation, Revision: offer.Revision})
			u, err := h.Temporal.UpdateWithStartWorkflow(t.Context(), client.UpdateWithStartWorkflowOptions{
				StartWorkflowOperation: start,
				UpdateOptions: client.UpdateWorkflowOptions{
					UpdateName: offer.Create.Update, UpdateID: "idempotency-" + id.String(),
					Args: []any{offer.CreateRequest{Draft: draft}}, WaitForStage: client.WorkflowUpdateStageCompleted,
				},
			})
			if err == nil {
				err = u.Get(t.Context(), nil)
			}
			if err == nil {
				t.Fatal("the workflow created an offer whose reference an active offer holds")
			}
		}, "DuplicateSellerOfferReference", func(reference string) string {
			return `seller_offer_reference "` + reference + `" belongs to an active offer`
		}},
		{"never created", func(t *testing.T, id uuid.UUID, reference string) {
			// The workflow started, but its creation never came.
			run, err := h.Temporal.ExecuteWorkflow(t.Context(), offer.StartOptions(id, sellerID, reference), offer.Offer,
				offer.Input{OfferID: id, SellerID: sellerID, Review: offers.ReviewBySimulation, Revision: offer.Revision})
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Temporal.TerminateWorkflow(t.Context(), run.GetID(), run.GetRunID(), "the first attempt's process died"); err != nil {
				t.Fatal(err)
			}
		}, "OfferNotCreated", func(string) string {
			return "the offer could not be created; send the request with a new Idempotency-Key to create it"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			reference := "ended-" + uuid.NewString()[:8]
			key := "ended-" + reference
			// The reference is held while the first attempt runs, so the
			// first attempt is refused; its key reserved the offer's id.
			held := f.CreateOffer(t, apitest.OfferPayload(reference))
			// One body for every attempt: offerPayload's expiry moves with
			// the clock, and a retry must send the same request.
			payload := apitest.OfferPayload(reference)
			if first := keyed(t, h, http.MethodPost, "/v1/offers", f.Token, key, payload); first.Status != http.StatusUnprocessableEntity {
				t.Fatalf("first: %d %s", first.Status, first.Body)
			}
			id := reservedID(t, h, key)
			c.firstAttempt(t, id, reference)
			loseOutcome(t, h, key)
			// Once the reference is free, a fresh creation would succeed:
			// the retry must still answer what the first attempt did.
			if resp := h.Do(t, http.MethodPost, "/v1/offers/"+held.ID+"/void", f.Token, map[string]any{}); resp.Status != http.StatusOK {
				t.Fatalf("void: %d %s", resp.Status, resp.Body)
			}
			retry := keyed(t, h, http.MethodPost, "/v1/offers", f.Token, key, payload)
			var body struct{ Name, Message string }
			retry.Decode(t, &body)
			wantMessage := c.wantMessage(reference)
			if retry.Status != http.StatusUnprocessableEntity || body.Name != c.wantName || body.Message != wantMessage {
				t.Errorf("resumed: %d %s, want 422 %s %q", retry.Status, retry.Body, c.wantName, wantMessage)
			}
			if n := h.Count(t, "SELECT count(*) FROM offers WHERE id = $1", id); n != 0 {
				t.Errorf("the resumed creation made the offer")
			}
			replay := keyed(t, h, http.MethodPost, "/v1/offers", f.Token, key, payload)
			if replay.Header.Get("Idempotent-Replayed") != "true" || replay.Status != retry.Status {
				t.Errorf("the resumed outcome is not recorded: %d %s", replay.Status, replay.Body)
			}
		})
	}
}
