package seller

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/internal/testing/histories"
)

// recorded reads the recordings matching pattern in testdata/views.
func recorded[T any](t *testing.T, pattern string) map[string]T {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "views", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings %s: %v", pattern, err)
	}
	out := map[string]T{}
	for _, f := range files {
		var v T
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = v
	}
	return out
}

// sameBytes fails unless got is, byte for byte, the recorded JSON (which
// the recording indented).
func sameBytes(t *testing.T, what string, got []byte, recorded json.RawMessage) {
	t.Helper()
	var want bytes.Buffer
	if err := json.Compact(&want, recorded); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("%s changed:\n got %s\nwant %s", what, got, want.Bytes())
	}
}

// finalEvent is the payload of the event announcing the status the
// recording ended in, if the spec has one.
func finalEvent(events []histories.Event, kind, status string) (json.RawMessage, bool) {
	for _, e := range events {
		if e.Type == kind+"."+status {
			return e.Payload, true
		}
	}
	return nil, false
}

// Offers stored by earlier code (documents of version 0) render, byte for
// byte, as GET answered for them then, and as the webhook of their last
// status carried them; only the sandbox's declined offer gains the
// additive risk_decision, the simulated decline, which is checked apart.
func TestRecordedOffersRenderAsBefore(t *testing.T) {
	for name, rec := range recorded[histories.Offer](t, "offer-*.json") {
		t.Run(name, func(t *testing.T) {
			row := rec.Row
			row.Document = rec.Document
			stored, err := offers.Decode(row)
			if err != nil {
				t.Fatal(err)
			}
			review := offers.ReviewByRules
			if strings.HasPrefix(name, "offer-sandbox-") {
				review = offers.ReviewBySimulation
			}
			view := offerView(stored, review)
			if name == "offer-sandbox-declined.json" {
				want := sellerapi.OfferRiskDecision{Outcome: "decline", Language: "en", Reasons: []sellerapi.OfferRiskReason{
					{Code: "simulated", Text: offers.SimulatedDecline.EN},
				}}
				if d := view.RiskDecision; d == nil || !reflect.DeepEqual(*d, want) {
					t.Errorf("the sandbox's declined offer shows the risk decision %+v, want %+v", d, want)
				}
				view.RiskDecision = nil
			}
			got, err := json.Marshal(view)
			if err != nil {
				t.Fatal(err)
			}
			sameBytes(t, "GET /v1/offers/{id}", got, rec.View)
			if payload, ok := finalEvent(rec.Events, "offer", row.Status); ok {
				sameBytes(t, "the offer."+row.Status+" payload", got, payload)
			}
		})
	}
}

// Orders stored by earlier code render, byte for byte, as GET and the
// order operations answered for them then.
func TestRecordedOrdersRenderAsBefore(t *testing.T) {
	for name, rec := range recorded[histories.Order](t, "order-*.json") {
		t.Run(name, func(t *testing.T) {
			row := rec.Row
			row.Document, row.Metadata = rec.Document, rec.Metadata
			stored, err := orders.Decode(row, rec.Assets, rec.TrackingURLs)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(orderView(stored))
			if err != nil {
				t.Fatal(err)
			}
			sameBytes(t, "GET /v1/orders/{id}", got, rec.View)
			status := row.Status
			if payload, ok := finalEvent(rec.Events, "order", status); ok {
				sameBytes(t, "the order."+status+" payload", got, payload)
			}
			if got, err = json.Marshal(orderSummaryView(stored)); err != nil {
				t.Fatal(err)
			}
			sameBytes(t, "the order summary", got, rec.Summary)
		})
	}
}

// The risk decision an offer shows, by its status, the decision its
// document keeps, the customer's language and the environment's review.
func TestRiskDecisionView(t *testing.T) {
	reason := offers.RiskReason{Code: "too_many_servers", EN: "Too many.", DE: "Zu viele.", NL: "Te veel."}
	review := func(outcome offers.Decision) *offers.RiskReview {
		return &offers.RiskReview{Outcome: outcome, Reason: reason, RuleSetVersion: "v1"}
	}
	decision := func(outcome, language, code, text string) *sellerapi.OfferRiskDecision {
		return &sellerapi.OfferRiskDecision{
			Outcome: sellerapi.OfferRiskDecisionOutcome(outcome), Language: sellerapi.OfferRiskDecisionLanguage(language),
			Reasons: []sellerapi.OfferRiskReason{{Code: code, Text: text}},
		}
	}
	for _, c := range []struct {
		name     string
		status   offers.Status
		review   *offers.RiskReview
		language string
		by       offers.Review
		want     *sellerapi.OfferRiskDecision
	}{
		{"declined by the rules, German customer", offers.Declined, review(offers.DecisionDecline), "de", offers.ReviewByRules, decision("decline", "de", "too_many_servers", "Zu viele.")},
		{"declined by the rules, Dutch customer", offers.Declined, review(offers.DecisionDecline), "nl", offers.ReviewByRules, decision("decline", "nl", "too_many_servers", "Te veel.")},
		{"declined by the rules, no checkout", offers.Declined, review(offers.DecisionDecline), "", offers.ReviewByRules, decision("decline", "en", "too_many_servers", "Too many.")},
		{"declined by the rules, another language", offers.Declined, review(offers.DecisionDecline), "fr", offers.ReviewByRules, decision("decline", "en", "too_many_servers", "Too many.")},
		{"left to an operator", offers.PendingReview, review(offers.DecisionManual), "de", offers.ReviewByRules, decision("manual", "de", "too_many_servers", "Zu viele.")},
		{"declined by an operator", offers.Declined, review(offers.DecisionManual), "en", offers.ReviewByRules, decision("manual", "en", "too_many_servers", "Too many.")},
		{"accepted by an operator", offers.Accepted, review(offers.DecisionManual), "en", offers.ReviewByRules, nil},
		{"accepted by the rules", offers.Accepted, review(offers.DecisionAccept), "en", offers.ReviewByRules, nil},
		{"under review, not yet decided", offers.PendingReview, nil, "en", offers.ReviewByRules, nil},
		{"declined before decisions were logged", offers.Declined, nil, "en", offers.ReviewByRules, nil},
		{"declined in the sandbox", offers.Declined, nil, "nl", offers.ReviewBySimulation, decision("decline", "nl", "simulated", offers.SimulatedDecline.NL)},
		{"waiting in the sandbox", offers.PendingReview, nil, "en", offers.ReviewBySimulation, nil},
		{"voided in the sandbox", offers.Voided, nil, "en", offers.ReviewBySimulation, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := offers.Stored{Row: dbgen.Offer{Status: string(c.status)}, Document: offers.Document{RiskReview: c.review}}
			if c.language != "" {
				o.Document.Checkout = &offers.CustomerSide{EndCustomer: &offers.EndCustomer{Language: c.language}}
			}
			if got := riskDecisionView(o, c.by); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
