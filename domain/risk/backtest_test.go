package risk

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// A backtest on a known log: the live rules accepted three offers, left
// one to an operator and declined one; a candidate capping exposure
// declines the larger accepted one and the one left to an operator, and
// its seller cap fails on a seller without the limit (rule_error: manual).
func TestBacktestReport(t *testing.T) {
	live := ruleSet(t, `version: live-1
rules:
  - {id: abroad, when: 'offer.shipping_country != "DE"', outcome: decline, reason: `+reasonYAML+`}
  - {id: large, when: "offer.total_net > 1000000", outcome: manual, reason: `+reasonYAML+`}
default: {outcome: accept, reason: `+reasonYAML+`}
`)
	candidate := ruleSet(t, `version: candidate-1
rules:
  - {id: abroad, when: 'offer.shipping_country != "DE"', outcome: decline, reason: `+reasonYAML+`}
  - {id: exposure-cap, when: "exposure.open_net + offer.total_net > 1000000", outcome: decline,
     reason: {code: exposure_limit, en: "Too much.", de: "Zu viel.", nl: "Te veel."}}
  - {id: seller-cap, when: "offer.total_net > seller.limits.max_offer_net", outcome: decline, reason: `+reasonYAML+`}
default: {outcome: accept, reason: `+reasonYAML+`}
`)
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	snapshots := []Snapshot{
		{Version: SnapshotVersion, Offer: Offer{TotalNet: 100_000, ShippingCountry: "DE"}, Seller: Seller{Limits: map[string]int64{"max_offer_net": 500_000}}},
		{Version: SnapshotVersion, Offer: Offer{TotalNet: 900_000, ShippingCountry: "DE"}, Exposure: Exposure{OpenNet: 200_000, Offers: 1}},
		{Version: SnapshotVersion, Offer: Offer{TotalNet: 2_000_000, ShippingCountry: "DE"}},
		{Version: SnapshotVersion, Offer: Offer{TotalNet: 100_000, ShippingCountry: "US"}},
		{Version: SnapshotVersion, Offer: Offer{TotalNet: 50_000, ShippingCountry: "DE"}},
	}
	b := NewBacktest(candidate.Version, at.Add(-30*24*time.Hour))
	for i, snap := range snapshots {
		id := uuid.MustParse("0193c3a8-7c1e-7b3e-9a4e-00000000000" + string(rune('1'+i)))
		seller := uuid.MustParse("0193c3a8-7c1e-7b3e-9a4e-0000000000ff")
		l := Logged{OfferID: id, SellerID: seller, Snapshot: snap, Decision: live.Evaluate(snap), DecidedAt: at.Add(time.Duration(i) * time.Minute)}
		b.Add(l, candidate.Evaluate(snap))
	}
	var out strings.Builder
	if err := b.Write(&out, -1); err != nil {
		t.Fatal(err)
	}
	want := `Backtest of candidate-1 against the live decisions since 2026-10-21T09:00:00Z
5 decisions (live rule sets: live-1)
1 candidate decisions hit a condition that failed (rule_error, manual)

  live \ candidate  accept  decline  manual  total
            accept       1        1       1      3
           decline       0        1       0      1
            manual       0        1       0      1

3 offers would flip
DECIDED               OFFER                                 SELLER                                LIVE               CANDIDATE                CANDIDATE REASON
2026-11-20T09:01:00Z  0193c3a8-7c1e-7b3e-9a4e-000000000002  0193c3a8-7c1e-7b3e-9a4e-0000000000ff  accept by default  decline by exposure-cap  exposure_limit
2026-11-20T09:02:00Z  0193c3a8-7c1e-7b3e-9a4e-000000000003  0193c3a8-7c1e-7b3e-9a4e-0000000000ff  manual by large    decline by exposure-cap  exposure_limit
2026-11-20T09:04:00Z  0193c3a8-7c1e-7b3e-9a4e-000000000005  0193c3a8-7c1e-7b3e-9a4e-0000000000ff  accept by default  manual by seller-cap     rule_error
`
	if out.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", out.String(), want)
	}
}
