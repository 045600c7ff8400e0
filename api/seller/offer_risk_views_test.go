package seller_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// riskDecision is what the tests read of an offer's risk_decision.
type riskDecision struct {
	Outcome  string `json:"outcome"`
	Language string `json:"language"`
	Reasons  []struct {
		Code string `json:"code"`
		Text string `json:"text"`
	} `json:"reasons"`
}

// An offer under review in the sandbox has no risk decision; declined by
// mark_offer_declined, it shows the simulated one, in GET, in the list
// and in its offer.declined event alike. Accepted offers show none.
func TestSandboxDeclineShowsTheSimulatedRiskDecision(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	read := func(body []byte) *riskDecision {
		t.Helper()
		var o struct {
			RiskDecision *riskDecision `json:"risk_decision"`
		}
		if err := json.Unmarshal(body, &o); err != nil {
			t.Fatal(err)
		}
		return o.RiskDecision
	}
	get := func(id string) *riskDecision {
		t.Helper()
		resp := f.Harness.Do(t, http.MethodGet, "/v1/offers/"+id, f.Token, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("GET /v1/offers/%s: %d %s", id, resp.Status, resp.Body)
		}
		return read(resp.Body)
	}

	declined := f.CreateOffer(t, apitest.OfferPayload("risk-declined"))
	f.MustSimulate(t, "mark_offer_for_review", declined.ID)
	if d := get(declined.ID); d != nil {
		t.Errorf("an offer waiting for the sandbox's simulation shows the risk decision %+v", d)
	}
	f.MustSimulate(t, "mark_offer_declined", declined.ID)
	d := get(declined.ID)
	if d == nil || d.Outcome != "decline" || d.Language != "en" || len(d.Reasons) != 1 || d.Reasons[0].Code != "simulated" ||
		d.Reasons[0].Text != "Declined by the sandbox scenario mark_offer_declined; no risk rules ran." {
		t.Fatalf("the declined offer shows the risk decision %+v", d)
	}
	accepted := f.CreateOffer(t, apitest.OfferPayload("risk-accepted"))
	f.MustSimulate(t, "mark_offer_for_review", accepted.ID)
	f.MustSimulate(t, "mark_offer_accepted", accepted.ID)
	if d := get(accepted.ID); d != nil {
		t.Errorf("an accepted offer shows the risk decision %+v", d)
	}

	resp := f.Harness.Do(t, http.MethodGet, "/v1/offers/paginated", f.Token, nil)
	var page struct {
		Offers []json.RawMessage `json:"offers"`
	}
	resp.Decode(t, &page)
	shown := map[string]*riskDecision{}
	for _, raw := range page.Offers {
		var o struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatal(err)
		}
		shown[o.ID] = read(raw)
	}
	if got := shown[declined.ID]; got == nil || got.Reasons[0].Code != "simulated" || shown[accepted.ID] != nil {
		t.Errorf("the list shows the risk decisions %+v", shown)
	}

	resp = f.Harness.Do(t, http.MethodGet, "/v1/events?object_id="+declined.ID+"&limit=100", f.Token, nil)
	var events struct {
		Events []struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	resp.Decode(t, &events)
	var payload *riskDecision
	for _, e := range events.Events {
		if e.Type == "offer.declined" {
			payload = read(e.Payload)
		}
	}
	if payload == nil || payload.Outcome != "decline" || payload.Reasons[0].Code != "simulated" || payload.Reasons[0].Text != d.Reasons[0].Text {
		t.Errorf("the offer.declined event carries the risk decision %+v, want %+v (events %s)", payload, d, resp.Body)
	}
}
