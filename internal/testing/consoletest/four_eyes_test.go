package consoletest

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
)

// actor is an operator acting in the console, for the service's calls.
func (s *stack) actor(t *testing.T, email string, role console.Role) console.Actor {
	t.Helper()
	acct, err := s.svc.Console.Accounts.CreateOperator(t.Context(), email, role, "")
	if err != nil {
		t.Fatal(err)
	}
	return console.Actor{User: acct.User, Address: "192.0.2.7", RequestID: "four-eyes-" + email}
}

// Above console.four_eyes_above_cents (€50,000 by default) an operator's
// acceptance is a first approval and the offer stays in review; the same
// operator cannot confirm it; a second operator's confirmation accepts
// the offer, whose order is created. Each step is in the audit log, and
// below the amount one operator accepts as before.
func TestFourEyesAcceptance(t *testing.T) {
	// The seller's endpoint listens on this machine.
	s := newStack(t, func(c *config.Config) { c.Webhooks.AllowPrivateAddresses = true })
	if s.svc.Console.FourEyesAbove != 5_000_000 {
		t.Fatalf("four-eyes above %d cents, want the default 5,000,000", s.svc.Console.FourEyesAbove)
	}
	ctx := t.Context()
	ana, ben := s.actor(t, "ana@example.com", console.Reviewer), s.actor(t, "ben@example.com", console.Admin)
	// The seller's endpoint receives the offer's events, whose delivery
	// attempts the timeline shows.
	receiver := testenv.NewReceiver(t, testenv.Always(http.StatusNoContent))
	if _, _, err := s.svc.Webhooks.CreateEndpoint(ctx, s.sellerID, webhook.EndpointInput{URL: receiver.URL}); err != nil {
		t.Fatal(err)
	}
	vat := "DE811111111"
	big := s.companyOfferInReview(t, "Vierauge GmbH", &vat, 12) // €60,000

	action, err := s.svc.Console.Decide(ctx, ana, big, true, "")
	if err != nil || action != services.ActionApprove {
		t.Fatalf("the first acceptance: %q, %v; want a first approval", action, err)
	}
	item, err := s.svc.Console.Offer(ctx, big)
	if err != nil {
		t.Fatal(err)
	}
	if item.Offer.Row.Status != "pending_review" || item.Approval == nil || item.Approval.Email != "ana@example.com" {
		t.Fatalf("after the first approval: status %s, approval %+v; want in review, approved by ana", item.Offer.Row.Status, item.Approval)
	}
	queue, err := s.svc.Console.ReviewQueue(ctx, time.Time{}, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	if q := find(queue, big); q == nil || q.Approval == nil || q.Approval.Email != "ana@example.com" {
		t.Errorf("the queue shows %+v, want the offer awaiting a second approval by ana", q)
	}

	if _, err := s.svc.Console.Decide(ctx, ana, big, true, ""); !errors.Is(err, services.ErrOwnApproval) {
		t.Fatalf("ana confirming her own approval: %v, want ErrOwnApproval", err)
	}
	s.await(t, big, "pending_review", nil)

	action, err = s.svc.Console.Decide(ctx, ben, big, true, "")
	if err != nil || action != services.ActionConfirm {
		t.Fatalf("ben's confirmation: %q, %v", action, err)
	}
	s.await(t, big, "accepted", nil)
	if _, err := s.svc.Offers.Store.GetOrderByOffer(ctx, dbgen.GetOrderByOfferParams{SellerID: s.sellerID, OfferID: big}); err != nil {
		t.Errorf("the confirmed offer has no order: %v", err)
	}

	// offer.pending_review and offer.accepted.
	receiver.WaitDelivered(t, 2, 30*time.Second)
	entries, err := s.svc.Console.OfferDecisions(ctx, big)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.ActorEmail+" "+e.Action+" "+string(e.Outcome)+" "+e.Detail)
	}
	want := []string{
		"ana@example.com offer.approve succeeded ",
		"ana@example.com offer.confirm refused " + services.ErrOwnApproval.Error(),
		"ben@example.com offer.confirm succeeded ana@example.com",
	}
	if len(got) != len(want) {
		t.Fatalf("the offer's audit entries %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("audit entry %d: %q, want %q", i, got[i], want[i])
		}
	}
	// The receiver's two may be offer.pending_review and the order's
	// order.created, which is not on the offer's timeline, before
	// offer.accepted's attempt has begun: the timeline is read again until
	// both of the offer's events have an attempt.
	timeline := s.timelineWith(t, item, services.TimelineDelivery, 2)
	// Counted by kind, a status line by what it says (created, the risk
	// rules' decision, the order).
	kinds := map[string]int{}
	for i, line := range timeline {
		key := string(line.Kind)
		if line.Kind == services.TimelineStatus {
			key, _, _ = strings.Cut(line.What, ".")
		}
		kinds[key]++
		if i > 0 && line.At.Before(timeline[i-1].At) {
			t.Errorf("timeline line %d (%s) is before the one above it", i, key)
		}
	}
	if kinds[services.MomentCreated] != 1 || kinds[services.MomentRisk] != 1 || kinds[string(services.TimelineAction)] != 3 ||
		kinds[string(services.TimelineEvent)] != 2 || kinds[string(services.TimelineDelivery)] < 2 || kinds[services.MomentOrder] != 1 {
		t.Errorf("the timeline's lines by kind: %v", kinds)
	}

	// A second operator may decline an approved offer instead.
	declined := s.companyOfferInReview(t, "Abgelehnt GmbH", nil, 12)
	if action, err := s.svc.Console.Decide(ctx, ben, declined, true, ""); err != nil || action != services.ActionApprove {
		t.Fatalf("approving: %q, %v", action, err)
	}
	if _, err := s.svc.Console.Decide(ctx, ana, declined, false, "Register entry not confirmed"); err != nil {
		t.Fatal(err)
	}
	s.await(t, declined, "declined", nil)

	// Below the amount one operator accepts.
	small := s.companyOfferInReview(t, "Klein GmbH", nil, 6)
	if action, err := s.svc.Console.Decide(ctx, ana, small, true, ""); err != nil || action != "offer.accept" {
		t.Fatalf("accepting €30,000: %q, %v; want a plain acceptance", action, err)
	}
	s.await(t, small, "accepted", nil)
}

// The customer's open exposure sums the company's offers under review
// and accepted with their order open (by VAT number), this one included,
// and drops what is declined; another company's offers are not in it,
// and a company without a key has none to show.
func TestOpenExposure(t *testing.T) {
	s := newStack(t)
	ctx := t.Context()
	ana := s.actor(t, "ana@example.com", console.Reviewer)
	vat, other := "DE822222222", "DE833333333"
	first := s.companyOfferInReview(t, "Obligo GmbH", &vat, 12) // €60,000
	second := s.companyOfferInReview(t, "Obligo GmbH", &vat, 6) // €30,000
	elsewhere := s.companyOfferInReview(t, "Andere GmbH", &other, 6)
	exposure := func(id uuid.UUID) services.Exposure {
		t.Helper()
		item, err := s.svc.Console.Offer(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return item.Exposure
	}
	check := func(id uuid.UUID, net, count int64) {
		t.Helper()
		if e := exposure(id); !e.Known || e.OpenNet != net || e.Offers != count || e.Currency != "EUR" {
			t.Errorf("exposure of %s: %+v, want %d cents over %d offers", id, e, net, count)
		}
		// The console's query of many companies agrees with the risk
		// rules' query of one.
		rules, err := s.svc.Offers.Store.CompanyExposure(ctx, dbgen.CompanyExposureParams{Keys: []string{"vat:" + vat}, Currency: "EUR"})
		if err != nil || (id != elsewhere && (rules.OpenNet != net || rules.Offers != count)) {
			t.Errorf("the risk rules' exposure %+v, %v; want %d cents over %d offers", rules, err, net, count)
		}
	}
	check(first, 6_000_000+3_000_000, 2)
	check(second, 6_000_000+3_000_000, 2)
	check(elsewhere, 3_000_000, 1)
	queue, err := s.svc.Console.ReviewQueue(ctx, time.Time{}, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	if q := find(queue, first); q == nil || q.Exposure.OpenNet != 9_000_000 {
		t.Errorf("the queue's exposure of the first offer: %+v, want 9,000,000 cents", q)
	}
	if _, err := s.svc.Console.Decide(ctx, ana, second, false, "Too much at once"); err != nil {
		t.Fatal(err)
	}
	s.await(t, second, "declined", nil)
	check(first, 6_000_000, 1)
	// An accepted offer, its order open, still counts.
	third := s.companyOfferInReview(t, "Obligo GmbH", &vat, 6)
	if _, err := s.svc.Console.Decide(ctx, ana, third, true, ""); err != nil {
		t.Fatal(err)
	}
	s.await(t, third, "accepted", nil)
	check(first, 6_000_000+3_000_000, 2)
	check(third, 6_000_000+3_000_000, 2)
	if e := exposure(s.offerInReview(t, "Ohne Schlüssel GmbH")); e.Known {
		t.Errorf("a company without VAT number or address has an exposure: %+v", e)
	}
}

// find is the queue's item of an offer; nil when it is not in the page.
func find(items []services.ReviewItem, id uuid.UUID) *services.ReviewItem {
	for i := range items {
		if items[i].Offer.Row.ID == id {
			return &items[i]
		}
	}
	return nil
}

// timelineWith reads an offer's timeline until it has at least n lines of
// a kind, for what is recorded later than the moment a test can wait for.
func (s *stack) timelineWith(t *testing.T, item services.ReviewItem, kind services.TimelineKind, n int) []services.TimelineEntry {
	t.Helper()
	var timeline []services.TimelineEntry
	eventually(t, func() (string, bool) {
		var err error
		if timeline, err = s.svc.Console.OfferTimeline(t.Context(), item); err != nil {
			t.Fatal(err)
		}
		count := 0
		for _, line := range timeline {
			if line.Kind == kind {
				count++
			}
		}
		return fmt.Sprintf("the timeline has %d lines of kind %s, want %d", count, kind, n), count >= n
	})
	return timeline
}
