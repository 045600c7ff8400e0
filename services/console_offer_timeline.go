package services

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// The moments only an offer's timeline has (TimelineStatus lines' What).
const (
	// MomentRisk is the risk rules' decision, "risk.<outcome>"; Detail is
	// the rule set's version.
	MomentRisk = "risk"
	// MomentOrder is the order the accepted offer became; the line's
	// Record is the order, its Detail the order's status.
	MomentOrder = "order"
)

// OfferTimeline is everything that happened to an offer, in order, put
// together as an order's and a contract's timelines are: its creation,
// the risk rules' decision and its order, every event about it and every
// attempt to deliver them, and the operators' actions from the audit log.
func (c *Console) OfferTimeline(ctx context.Context, item ReviewItem) ([]TimelineEntry, error) {
	o, doc := item.Offer.Row, item.Offer.Document
	moments := []TimelineEntry{{At: o.CreatedAt, Kind: TimelineStatus, What: MomentCreated, Detail: o.SalesChannel}}
	if r := doc.RiskReview; r != nil {
		moments = append(moments, TimelineEntry{At: r.DecidedAt, Kind: TimelineStatus, What: MomentRisk + "." + string(r.Outcome), Detail: r.RuleSetVersion})
	}
	order, err := c.Offers.Store.GetOrderByOffer(ctx, dbgen.GetOrderByOfferParams{SellerID: o.SellerID, OfferID: o.ID})
	switch {
	case err == nil:
		moments = append(moments, TimelineEntry{At: order.CreatedAt, Kind: TimelineStatus, What: MomentOrder, Detail: order.Status, Record: order.ID})
	case !db.IsNotFound(err):
		return nil, err
	}
	return c.Timeline(ctx, TimelineOf{
		SellerID: o.SellerID, Records: []uuid.UUID{o.ID}, AuditTargets: []string{OfferTarget(o.ID)}, Moments: moments,
	})
}
