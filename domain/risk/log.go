package risk

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/optional"
)

// Logged is a decision as the decision log holds it: what the live rule
// set decided on the snapshot, what the shadow rule set would have decided
// (nil when none ran), and the exposure the decision reserved.
type Logged struct {
	ID          uuid.UUID
	OfferID     uuid.UUID
	SellerID    uuid.UUID
	Snapshot    Snapshot
	CompanyKeys []string
	// ReservedNet is what the decision added to the company's exposure:
	// the offer's net amount when it accepted or left the offer to an
	// operator, 0 when it declined.
	ReservedNet int64
	Decision    Decision
	Shadow      *Decision
	DecidedAt   time.Time
}

// Review is what the offer's document keeps of the decision.
func (l Logged) Review() offers.RiskReview {
	return offers.RiskReview{Outcome: l.Decision.Outcome, Reason: l.Decision.Reason, RuleSetVersion: l.Decision.RuleSetVersion, DecidedAt: l.DecidedAt}
}

// Decide decides an offer under review inside the transaction q and logs
// the decision there, so that the caller acts on it in the same
// transaction. Check and reservation are one step: it first locks the
// company's keys (CompanyKeys, in order), so that the decisions of one
// company, at any seller, run one at a time; then it reads the company's
// exposure, snapshots, evaluates the live and the shadow rule set, and
// logs, reserving the offer's net amount unless the offer is declined. An
// offer already decided (a retried activity whose transaction committed)
// answers its logged decision and already=true.
func Decide(ctx context.Context, q *dbgen.Queries, p *Policy, o offers.Stored) (l Logged, already bool, err error) {
	row, err := q.GetRiskDecisionByOffer(ctx, o.Row.ID)
	if err == nil {
		l, err = Decode(row)
		return l, true, err
	}
	if !db.IsNotFound(err) {
		return l, false, err
	}
	keys := CompanyKeys(o.Document)
	currency := o.Document.Currency()
	facts := Facts{Products: map[uuid.UUID]dbgen.Product{}}
	for _, key := range keys {
		if err := q.LockRiskCompanyKey(ctx, key); err != nil {
			return l, false, err
		}
	}
	if len(keys) > 0 {
		exposure, err := q.CompanyExposure(ctx, dbgen.CompanyExposureParams{Keys: keys, Currency: currency})
		if err != nil {
			return l, false, err
		}
		facts.Exposure = Exposure{OpenNet: exposure.OpenNet, Offers: exposure.Offers}
	}
	products, err := q.ProductsByIDs(ctx, dbgen.ProductsByIDsParams{SellerID: o.Row.SellerID, Ids: ProductIDs(o.Document)})
	if err != nil {
		return l, false, err
	}
	for _, product := range products {
		facts.Products[product.ID] = product
	}
	if facts.Seller, err = q.GetSeller(ctx, o.Row.SellerID); err != nil {
		return l, false, err
	}
	limits, err := q.ListSellerRiskLimits(ctx, o.Row.SellerID)
	if err != nil {
		return l, false, err
	}
	facts.Limits = make(map[string]int64, len(limits))
	for _, limit := range limits {
		facts.Limits[limit.Name] = limit.Amount
	}
	snap, err := OfferSnapshot(o, facts)
	if err != nil {
		return l, false, err
	}
	live, shadow := p.Decide(snap)
	l = Logged{ID: uuid.Must(uuid.NewV7()), OfferID: o.Row.ID, SellerID: o.Row.SellerID, Snapshot: snap, CompanyKeys: keys, Decision: live, Shadow: shadow}
	if live.Outcome != Decline {
		l.ReservedNet = snap.Offer.TotalNet
	}
	params, err := l.row(currency)
	if err != nil {
		return l, false, err
	}
	l.DecidedAt, err = q.InsertRiskDecision(ctx, params)
	return l, false, err
}

// row is the decision log's row of a decision.
func (l Logged) row(currency string) (dbgen.InsertRiskDecisionParams, error) {
	snapshot, err := json.Marshal(l.Snapshot)
	if err != nil {
		return dbgen.InsertRiskDecisionParams{}, err
	}
	reason, err := json.Marshal(l.Decision.Reason)
	if err != nil {
		return dbgen.InsertRiskDecisionParams{}, err
	}
	p := dbgen.InsertRiskDecisionParams{
		ID: l.ID, OfferID: l.OfferID, SellerID: l.SellerID, SnapshotVersion: int32(l.Snapshot.Version), Snapshot: snapshot,
		CompanyKeys: l.CompanyKeys, Currency: currency, ReservedNet: l.ReservedNet,
		RuleSetVersion: l.Decision.RuleSetVersion, Outcome: string(l.Decision.Outcome), RuleID: l.Decision.RuleID, Reason: reason, Error: l.Decision.Error,
	}
	if p.CompanyKeys == nil {
		p.CompanyKeys = []string{}
	}
	if s := l.Shadow; s != nil {
		if p.ShadowReason, err = json.Marshal(s.Reason); err != nil {
			return p, err
		}
		p.ShadowRuleSetVersion, p.ShadowOutcome, p.ShadowRuleID, p.ShadowError = &s.RuleSetVersion, (*string)(&s.Outcome), &s.RuleID, &s.Error
	}
	return p, nil
}

// Decode reads a row of the decision log.
func Decode(row dbgen.RiskDecision) (Logged, error) {
	l := Logged{
		ID: row.ID, OfferID: row.OfferID, SellerID: row.SellerID, CompanyKeys: row.CompanyKeys, ReservedNet: row.ReservedNet, DecidedAt: row.DecidedAt,
		Decision: Decision{Outcome: Outcome(row.Outcome), RuleID: row.RuleID, RuleSetVersion: row.RuleSetVersion, Error: row.Error},
	}
	if err := json.Unmarshal(row.Snapshot, &l.Snapshot); err != nil {
		return l, fmt.Errorf("decision %s has an unreadable snapshot: %w", row.ID, err)
	}
	if err := json.Unmarshal(row.Reason, &l.Decision.Reason); err != nil {
		return l, fmt.Errorf("decision %s has an unreadable reason: %w", row.ID, err)
	}
	if row.ShadowOutcome != nil {
		s := Decision{
			Outcome: Outcome(*row.ShadowOutcome), RuleID: optional.Value(row.ShadowRuleID),
			RuleSetVersion: optional.Value(row.ShadowRuleSetVersion), Error: optional.Value(row.ShadowError),
		}
		if err := json.Unmarshal(row.ShadowReason, &s.Reason); err != nil {
			return l, fmt.Errorf("decision %s has an unreadable shadow reason: %w", row.ID, err)
		}
		l.Shadow = &s
	}
	return l, nil
}
