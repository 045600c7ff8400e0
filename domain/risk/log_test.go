package risk_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/risk"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// capRules decline an offer that would take its company's exposure above
// 25,000.00, and leave offers above 9,000.00 to an operator.
const capRules = `version: cap-1
rules:
  - id: exposure-cap
    when: exposure.open_net + offer.total_net > 2500000
    outcome: decline
    reason: {code: exposure_limit, en: "Too much open.", de: "Zu viel offen.", nl: "Te veel open."}
  - id: large
    when: offer.total_net > 900000
    outcome: manual
    reason: {code: large, en: "Large.", de: "Groß.", nl: "Groot."}
default: {outcome: accept, reason: {code: ok, en: "OK.", de: "OK.", nl: "OK."}}
`

// logStack is a database with a seller whose offers the rules decide.
type logStack struct {
	store  *db.Store
	seller uuid.UUID
	policy *risk.Policy
}

func newLogStack(t testing.TB, live, shadow string) *logStack {
	t.Helper()
	dir := t.TempDir()
	c := testenv.Config(t).Risk
	for file, source := range map[*string]string{&c.RulesFile: live, &c.ShadowRulesFile: shadow} {
		if source == "" {
			continue
		}
		*file = filepath.Join(dir, fmt.Sprintf("rules-%d.yaml", len(source)))
		if err := os.WriteFile(*file, []byte(source), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	policy, err := risk.LoadPolicy(c)
	if err != nil {
		t.Fatal(err)
	}
	store := testenv.Database(t)
	seller, err := auth.CreateSeller(t.Context(), store, "Risk Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	return &logStack{store: store, seller: seller.Seller.ID, policy: policy}
}

// offer stores an offer under review of a net amount for a company known
// by its VAT id.
func (s *logStack) offer(t testing.TB, net int64, vat string) offers.Stored {
	t.Helper()
	name := "Kunde GmbH"
	d := offers.Draft{
		ID: uuid.Must(uuid.NewV7()), SellerID: s.seller, SellerOfferReference: uuid.NewString(), SalesChannel: "ecommerce",
		ExpiresAt: time.Now().Add(time.Hour),
		Document: offers.Document{
			Customer: offers.Customer{Company: &offers.Company{Name: &name, VATNumber: &vat}},
			Lines:    []offers.Line{{ID: "l1", Quantity: 1, Price: pricing.Money{Currency: "EUR", Net: net, Gross: net * 119 / 100}}},
			Pricing:  &offers.Pricing{InsteadOf: pricing.Money{Currency: "EUR", Net: net, Gross: net * 119 / 100}},
		},
	}
	row, err := offers.Row(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.store.CreateOffer(t.Context(), row); err != nil {
		t.Fatal(err)
	}
	s.move(t, d.ID, offers.Created, offers.PendingReview)
	o, err := offers.Load(t.Context(), s.store.Queries, s.seller, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func (s *logStack) move(t testing.TB, id uuid.UUID, from, to offers.Status) {
	t.Helper()
	_, err := s.store.SetOfferStatus(t.Context(), dbgen.SetOfferStatusParams{SellerID: s.seller, ID: id, FromStatus: string(from), ToStatus: string(to)})
	if err != nil {
		t.Fatal(err)
	}
}

// decide decides an offer in a transaction of its own.
func (s *logStack) decide(t *testing.T, o offers.Stored) (risk.Logged, bool) {
	t.Helper()
	var l risk.Logged
	var already bool
	err := s.store.InTx(t.Context(), func(q *dbgen.Queries) (err error) {
		l, already, err = risk.Decide(t.Context(), q, s.policy, o)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return l, already
}

func (s *logStack) exposure(t *testing.T, vat string) int64 {
	t.Helper()
	e, err := s.store.CompanyExposure(t.Context(), dbgen.CompanyExposureParams{Keys: []string{"vat:" + vat}, Currency: "EUR"})
	if err != nil {
		t.Fatal(err)
	}
	return e.OpenNet
}

// Twenty decisions of one company at once against a limit that fits five:
// exactly five pass, because each locks the company before it reads its
// exposure and reserves in the same transaction.
func TestExposureHoldsUnderConcurrentDecisions(t *testing.T) {
	s := newLogStack(t, capRules, "")
	candidates := make([]offers.Stored, 20)
	for i := range candidates {
		candidates[i] = s.offer(t, 500_000, "DE111111111")
	}
	outcomes := make([]risk.Outcome, len(candidates))
	var wg sync.WaitGroup
	for i, o := range candidates {
		wg.Go(func() {
			err := s.store.InTx(t.Context(), func(q *dbgen.Queries) error {
				l, _, err := risk.Decide(t.Context(), q, s.policy, o)
				outcomes[i] = l.Decision.Outcome
				return err
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	count := map[risk.Outcome]int{}
	for _, o := range outcomes {
		count[o]++
	}
	if count[risk.Accept] != 5 || count[risk.Decline] != 15 {
		t.Errorf("outcomes %v, want 5 accepted and 15 declined", count)
	}
	if got := s.exposure(t, "DE111111111"); got != 2_500_000 {
		t.Errorf("exposure %d, want the five reservations (2500000)", got)
	}
}

// A declined decision reserves nothing; a reservation counts while its
// offer is under review or accepted, and is released when the offer is
// declined (by an operator or the manual review's deadline) or voided, or
// its order canceled. (Only created offers expire, and they hold none.)
func TestReservationsAndTheirRelease(t *testing.T) {
	s := newLogStack(t, capRules, "")
	const vat = "DE222222222"
	manual := s.offer(t, 1_000_000, vat)
	if l, _ := s.decide(t, manual); l.Decision.Outcome != risk.Manual || l.ReservedNet != 1_000_000 {
		t.Fatalf("the large offer: %+v", l)
	}
	accepted := s.offer(t, 800_000, vat)
	if l, _ := s.decide(t, accepted); l.Decision.Outcome != risk.Accept || l.Snapshot.Exposure.OpenNet != 1_000_000 || l.Snapshot.Exposure.Offers != 1 {
		t.Fatalf("the second offer: %+v", l)
	}
	tooMuch := s.offer(t, 800_000, vat)
	if l, _ := s.decide(t, tooMuch); l.Decision.Outcome != risk.Decline || l.ReservedNet != 0 || l.Decision.Reason.Code != "exposure_limit" {
		t.Fatalf("the third offer: %+v", l)
	}
	if got := s.exposure(t, vat); got != 1_800_000 {
		t.Errorf("exposure %d, want the manual and the accepted offer's", got)
	}
	s.move(t, tooMuch.Row.ID, offers.PendingReview, offers.Declined)
	if got := s.exposure(t, vat); got != 1_800_000 {
		t.Errorf("the declined offer had reserved nothing, yet exposure is %d", got)
	}

	// The operator declines the manual review (or its deadline does):
	// its reservation goes; a voided offer's too.
	s.move(t, manual.Row.ID, offers.PendingReview, offers.Declined)
	if got := s.exposure(t, vat); got != 800_000 {
		t.Errorf("after the decline: exposure %d, want 800000", got)
	}
	voided := s.offer(t, 100_000, vat)
	s.decide(t, voided)
	s.move(t, voided.Row.ID, offers.PendingReview, offers.Voided)
	if got := s.exposure(t, vat); got != 800_000 {
		t.Errorf("after voiding: exposure %d, want 800000", got)
	}

	// The accepted offer's order is canceled: nothing is owed any more.
	s.move(t, accepted.Row.ID, offers.PendingReview, offers.Accepted)
	orderID := uuid.Must(uuid.NewV7())
	if _, err := s.store.CreateOrder(t.Context(), dbgen.CreateOrderParams{ID: orderID, SellerID: s.seller, OfferID: accepted.Row.ID,
		SellerOfferReference: accepted.Row.SellerOfferReference, Document: []byte(`{}`), OfferCreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if got := s.exposure(t, vat); got != 800_000 {
		t.Errorf("an accepted offer's open order: exposure %d, want 800000", got)
	}
	if _, err := s.store.SetOrderStatus(t.Context(), dbgen.SetOrderStatusParams{SellerID: s.seller, ID: orderID, FromStatus: "created", ToStatus: "canceled"}); err != nil {
		t.Fatal(err)
	}
	if got := s.exposure(t, vat); got != 0 {
		t.Errorf("after the order's cancellation: exposure %d, want 0", got)
	}
}

// A decision is made once: deciding again answers the logged decision, as
// a retried activity whose transaction committed must.
func TestDecisionIsLoggedOnce(t *testing.T) {
	s := newLogStack(t, capRules, "")
	o := s.offer(t, 100_000, "DE333333333")
	first, already := s.decide(t, o)
	if already || first.Decision.Outcome != risk.Accept || first.Decision.RuleSetVersion != "cap-1" {
		t.Fatalf("first decision %+v (already %v)", first, already)
	}
	again, already := s.decide(t, o)
	if !already || again.ID != first.ID || again.Decision != first.Decision || !again.DecidedAt.Equal(first.DecidedAt) {
		t.Errorf("deciding again: %+v (already %v), want %+v", again, already, first)
	}
	if again.Snapshot.Offer.TotalNet != 100_000 || again.Snapshot.Customer.VATNumber != "DE333333333" || again.Snapshot.Seller.Name != "Risk Shop" {
		t.Errorf("the logged snapshot: %+v", again.Snapshot)
	}
}

// The shadow rule set sees every decision's snapshot and is logged beside
// the live decision, which it does not change.
func TestShadowChangesNothing(t *testing.T) {
	strict := `version: strict-1
rules:
  - {id: decline-all, when: "true", outcome: decline, reason: {code: no, en: "No.", de: "Nein.", nl: "Nee."}}
default: {outcome: accept, reason: {code: ok, en: "OK.", de: "OK.", nl: "OK."}}
`
	plain, shadowed := newLogStack(t, capRules, ""), newLogStack(t, capRules, strict)
	for _, net := range []int64{100_000, 1_000_000, 2_000_000} {
		a, _ := plain.decide(t, plain.offer(t, net, "DE444444444"))
		b, _ := shadowed.decide(t, shadowed.offer(t, net, "DE444444444"))
		if a.Decision != b.Decision || a.ReservedNet != b.ReservedNet || a.Snapshot.Exposure != b.Snapshot.Exposure {
			t.Errorf("net %d: with a shadow %+v, without %+v", net, b, a)
		}
		if a.Shadow != nil || b.Shadow == nil || b.Shadow.Outcome != risk.Decline || b.Shadow.RuleID != "decline-all" || b.Shadow.RuleSetVersion != "strict-1" {
			t.Errorf("net %d: shadow decisions %+v and %+v", net, a.Shadow, b.Shadow)
		}
		row, err := shadowed.store.GetRiskDecisionByOffer(t.Context(), b.OfferID)
		if err != nil {
			t.Fatal(err)
		}
		if logged, err := risk.Decode(row); err != nil || logged.Shadow == nil || *logged.Shadow != *b.Shadow {
			t.Errorf("net %d: the log holds %+v, %v", net, logged.Shadow, err)
		}
	}
}

// A seller's limits reach the rules as seller.limits.
func TestSellerLimitsReachTheRules(t *testing.T) {
	s := newLogStack(t, `version: limits-1
rules:
  - id: seller-cap
    when: '"max_offer_net" in seller.limits && offer.total_net > seller.limits.max_offer_net'
    outcome: manual
    reason: {code: seller_limit, en: "Above.", de: "Darüber.", nl: "Erboven."}
default: {outcome: accept, reason: {code: ok, en: "OK.", de: "OK.", nl: "OK."}}
`, "")
	if l, _ := s.decide(t, s.offer(t, 200_000, "DE555555555")); l.Decision.Outcome != risk.Accept || len(l.Snapshot.Seller.Limits) != 0 {
		t.Errorf("without a limit: %+v", l)
	}
	if err := s.store.SetSellerRiskLimit(t.Context(), dbgen.SetSellerRiskLimitParams{SellerID: s.seller, Name: "max_offer_net", Amount: 150_000}); err != nil {
		t.Fatal(err)
	}
	l, _ := s.decide(t, s.offer(t, 200_000, "DE555555555"))
	if l.Decision.Outcome != risk.Manual || l.Decision.RuleID != "seller-cap" || l.Snapshot.Seller.Limits["max_offer_net"] != 150_000 {
		t.Errorf("with a limit of 150000: %+v", l)
	}
}

// An accepted offer counts its reservation until its order's contracts have
// schedules; from then on it counts the installments still owed (scheduled,
// due or failed), not those paid or waived.
func TestExposureCountsContractsOpenInstallments(t *testing.T) {
	s := newLogStack(t, capRules, "")
	const vat = "DE333333333"
	o := s.offer(t, 1_000_000, vat)
	if l, _ := s.decide(t, o); l.Decision.Outcome == risk.Decline || l.ReservedNet != 1_000_000 {
		t.Fatalf("the offer: %+v", l)
	}
	s.move(t, o.Row.ID, offers.PendingReview, offers.Accepted)
	orderID, contractID := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	_, err := s.store.Pool.Exec(t.Context(), `
INSERT INTO orders (id, seller_id, offer_id, seller_offer_reference, status, document, offer_created_at)
VALUES ($1, $2, $3, 'risk-contract', 'confirmed', '{}', now())`, orderID, s.seller, o.Row.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.store.Pool.Exec(t.Context(), `
INSERT INTO rental_contracts (id, order_id, seller_id, offer_id, line_position, quantity, duration_months, monthly_net, monthly_gross, currency)
VALUES ($1, $2, $3, $4, 0, 1, 12, 10000, 11900, 'EUR')`, contractID, orderID, s.seller, o.Row.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.exposure(t, vat); got != 1_000_000 {
		t.Errorf("a contract awaiting delivery: exposure %d, want the reservation (1000000)", got)
	}
	for i, status := range []string{"paid", "due", "failed", "scheduled", "waived"} {
		_, err := s.store.Pool.Exec(t.Context(), `
INSERT INTO contract_installments (contract_id, number, period_from, period_to, due_date, currency, net, gross, tax_rate, status)
VALUES ($1, $2, '2026-01-01', '2026-01-31', '2026-01-01', 'EUR', 10000, 11900, 1900, $3)`, contractID, i+1, status)
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := s.exposure(t, vat); got != 30_000 {
		t.Errorf("a running contract: exposure %d, want its due, failed and scheduled installments (30000)", got)
	}
}
