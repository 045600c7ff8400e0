package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/risk"
	"github.com/tenurehq/tenure/internal/testing/customerclient"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// writeRules writes a rule set file for a test.
func writeRules(t *testing.T, name, source string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(source), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// withRules makes a stack decide by the rule files given ("" for none).
func withRules(live, shadow string) func(*config.Config) {
	return func(c *config.Config) { c.Risk.RulesFile, c.Risk.ShadowRulesFile = live, shadow }
}

// `tenure risk check` names every problem of a rule set with its rule and
// position and exits non-zero; a good rule set, such as the one
// `tenure risk default` prints, passes.
func TestRiskCheckCommand(t *testing.T) {
	bad := writeRules(t, "bad.yaml", `version: 2026-11-25.1
rules:
  - id: young-company
    when: customer.company_age_month < 24
    outcome: decline
    reason: {code: young_company, en: "Young.", de: "Jung."}
default: {outcome: acept, reason: {code: ok, en: "OK.", de: "OK.", nl: "OK."}}
`)
	out, err := tenureCLIFails(t, os.Environ(), "risk", "check", "--rules", bad)
	for _, want := range []string{
		bad + `:6:13: rule "young-company": reason.nl is missing`,
		bad + `:4:19: rule "young-company": undefined field 'company_age_month'`,
		bad + `:7:20: rule "default": outcome "acept" is not one of accept, decline, manual`,
	} {
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("checking a bad rule set: %v; the output lacks %q:\n%s", err, want, out)
		}
	}
	good := writeRules(t, "default.yaml", string(tenureCLI(t, os.Environ(), "risk", "default")))
	if out := string(tenureCLI(t, os.Environ(), "risk", "check", "--rules", good)); !strings.Contains(out, "4 rules, default accept (within_limits)") {
		t.Errorf("checking the default rule set printed %q", out)
	}
}

// liveRules decline renting three or more servers to a GmbH (a custom CEL
// rule) and leave two servers to an operator.
const liveRules = `version: e2e-live-1
rules:
  - id: gmbh-renting-many-servers
    when: 'customer.legal_form == "de_gmbh" && offer.lines.exists(l, l.contract_type == "rent" && l.quantity >= 3)'
    outcome: decline
    reason:
      code: too_many_servers
      en: "We rent at most two servers to one company at once."
      de: "Wir vermieten einem Unternehmen höchstens zwei Server auf einmal."
      nl: "Wij verhuren hoogstens twee servers tegelijk aan één bedrijf."
  - id: two-servers-reviewed
    when: offer.lines.exists(l, l.quantity == 2)
    outcome: manual
    reason:
      code: two_servers
      en: "Two servers are reviewed by a person."
      de: "Zwei Server prüft ein Mensch."
      nl: "Twee servers beoordeelt een mens."
default: {outcome: accept, reason: {code: within_limits, en: "Within the limits.", de: "Innerhalb der Grenzen.", nl: "Binnen de limieten."}}
`

// shadowRules would decline every offer above 4,000.00 net.
const shadowRules = `version: e2e-shadow-1
rules:
  - id: strict-cap
    when: offer.total_net > 400000
    outcome: decline
    reason: {code: strict_cap, en: "Strict.", de: "Streng.", nl: "Streng."}
default: {outcome: accept, reason: {code: ok, en: "OK.", de: "OK.", nl: "OK."}}
`

// Production with a rule set of the deployment's own, a shadow set beside
// it and real checkouts: a custom CEL rule declines (the offer.declined
// webhook reaches the seller's receiver with the rule's reason code and
// text, and the offer keeps the reason), a manual review shows its reasons
// to an operator and to the seller, the operator declines it (its
// reservation goes, its webhook names the review's reason), and the
// shadow set and a candidate are backtested against the log.
func TestProductionRiskRulesEndToEnd(t *testing.T) {
	s := newCheckoutStackWith(t, config.Production, withRules(writeRules(t, "live.yaml", liveRules), writeRules(t, "shadow.yaml", shadowRules)))
	ctx := t.Context()
	checkout := func(reference string, units int) uuid.UUID {
		t.Helper()
		id, customer := s.offer(t, reference, units)
		if _, err := customer.Checkout(ctx, choice); err != nil {
			t.Fatal(err)
		}
		return uuid.MustParse(id)
	}
	// One after the other, so each decision sees the one before.
	accepted := checkout("risk-accept", 1)
	s.awaitStatus(t, accepted, offers.Accepted)
	declined := checkout("risk-decline", 3)
	s.awaitStatus(t, declined, offers.Declined)
	manual := checkout("risk-manual", 2)
	if status := s.awaitDecided(t, manual); status != offers.PendingReview {
		t.Fatalf("the offer left to an operator is %s", status)
	}

	// The decline by the custom rule reached the seller's webhook receiver
	// with the rule's reason code and its text in the language the
	// customer checked out in (German: the billing address is in Berlin),
	// and the offer keeps the rules' reason.
	tooMany := offerRiskDecision{Language: "de", Outcome: "decline", Reasons: []offerRiskReason{
		{Code: "too_many_servers", Text: "Wir vermieten einem Unternehmen höchstens zwei Server auf einmal."},
	}}
	if body := s.declinedEvent(t, declined); body.Status != "declined" || !reflect.DeepEqual(body.RiskDecision, &tooMany) {
		t.Errorf("the offer.declined webhook carried %+v, want the risk decision %+v", body, tooMany)
	}
	stored, err := offers.Load(ctx, s.store.Queries, s.sellerID(t, declined), declined)
	if err != nil {
		t.Fatal(err)
	}
	if r := stored.Document.RiskReview; r == nil || r.Outcome != risk.Decline || r.Reason.Code != "too_many_servers" ||
		r.RuleSetVersion != "e2e-live-1" || r.Reason.DE != "Wir vermieten einem Unternehmen höchstens zwei Server auf einmal." {
		t.Errorf("the declined offer keeps %+v", r)
	}

	// The operator sees the manual review's reasons, in three languages,
	// and the exposure it reserved.
	out := string(tenureCLI(t, s.env, "risk", "decisions", "--offer", manual.String()))
	for _, want := range []string{"is pending_review", "by rule set e2e-live-1: manual", "rule: two-servers-reviewed", "reason: two_servers",
		"en: Two servers are reviewed by a person.", "de: Zwei Server prüft ein Mensch.", "nl: Twee servers beoordeelt een mens.",
		"exposure before the offer: 5000.00 EUR over 1 offers; reserved 10000.00", "vat:DE123456789",
		"shadow rule set e2e-shadow-1 would have decided: decline", `"legal_form": "de_gmbh"`} {
		if !strings.Contains(out, want) {
			t.Errorf("tenure risk decisions --offer lacks %q:\n%s", want, out)
		}
	}
	queue := string(tenureCLI(t, s.env, "risk", "decisions", "--outcome", "manual", "--since", "1d"))
	if !strings.Contains(queue, manual.String()) || !strings.Contains(queue, "risk-manual") || !strings.Contains(queue, "Two servers are reviewed by a person.") {
		t.Errorf("the manual reviews listed:\n%s", queue)
	}
	if got := s.exposure(t); got != 1_500_000 {
		t.Errorf("exposure %d, want the accepted and the manual offer's 1500000", got)
	}
	// The seller sees the offer under review with the reason it waits for
	// a person, and, once the operator declined it, the offer.declined
	// webhook says the rules had left it to an operator, and why.
	twoServers := offerRiskDecision{Language: "de", Outcome: "manual", Reasons: []offerRiskReason{
		{Code: "two_servers", Text: "Zwei Server prüft ein Mensch."},
	}}
	var seen offerBody
	if status, raw, err := s.seller.Do(ctx, http.MethodGet, sellerclient.OfferPath(manual.String()), nil, &seen); status != http.StatusOK || err != nil ||
		seen.Status != "pending_review" || !reflect.DeepEqual(seen.RiskDecision, &twoServers) {
		t.Errorf("GET of the offer under review: %d %v %s, want the risk decision %+v", status, err, raw, twoServers)
	}
	if out := string(tenureCLI(t, s.env, "offers", "decide", manual.String(), "--decline")); !strings.Contains(out, "is declined") {
		t.Errorf("decide --decline printed %q", out)
	}
	if body := s.declinedEvent(t, manual); !reflect.DeepEqual(body.RiskDecision, &twoServers) {
		t.Errorf("the operator's offer.declined webhook carried %+v, want the risk decision %+v", body, twoServers)
	}
	if got := s.exposure(t); got != 500_000 {
		t.Errorf("after the operator's decline: exposure %d, want 500000", got)
	}

	// The shadow set would have declined the accepted offer and the one
	// left to an operator; a candidate that declines two servers flips
	// only the manual one.
	shadowReport := string(tenureCLI(t, s.env, "risk", "backtest", "--shadow", "--since", "1d"))
	for _, want := range []string{"Backtest of the shadow rule set (e2e-shadow-1)", "3 decisions (live rule sets: e2e-live-1)",
		"2 offers would flip", accepted.String(), "accept by default", "decline by strict-cap", manual.String(), "manual by two-servers-reviewed"} {
		if !strings.Contains(shadowReport, want) {
			t.Errorf("the shadow backtest lacks %q:\n%s", want, shadowReport)
		}
	}
	candidate := writeRules(t, "candidate.yaml", strings.NewReplacer("version: e2e-live-1", "version: e2e-candidate-1",
		"outcome: manual", "outcome: decline").Replace(liveRules))
	report := string(tenureCLI(t, s.env, "risk", "backtest", "--rules", candidate, "--since", "30d"))
	for _, want := range []string{"Backtest of e2e-candidate-1", "1 offers would flip", manual.String(), "manual by two-servers-reviewed",
		"decline by two-servers-reviewed", "two_servers"} {
		if !strings.Contains(report, want) {
			t.Errorf("the candidate's backtest lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, accepted.String()) || strings.Contains(report, declined.String()) {
		t.Errorf("the candidate's backtest flips offers it decides alike:\n%s", report)
	}
}

// offerBody is what the tests read of an offer's view or event body.
type offerBody struct {
	ID           string             `json:"id"`
	Status       string             `json:"status"`
	RiskDecision *offerRiskDecision `json:"risk_decision"`
}

// offerRiskDecision is an offer's risk_decision as the seller reads it.
type offerRiskDecision struct {
	Language string            `json:"language"`
	Outcome  string            `json:"outcome"`
	Reasons  []offerRiskReason `json:"reasons"`
}

// offerRiskReason is one reason of an offerRiskDecision.
type offerRiskReason struct {
	Code string `json:"code"`
	Text string `json:"text"`
}

// declinedEvent waits for the offer.declined webhook of an offer at the
// stack's receiver and reads its body.
func (s checkoutStack) declinedEvent(t *testing.T, id uuid.UUID) offerBody {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		for _, r := range s.receiver.Requests() {
			var body offerBody
			if r.Header.Get("webhook-event-type") != "offer.declined" {
				continue
			}
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			if body.ID == id.String() {
				return body
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no offer.declined webhook of offer %s reached the receiver", id)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exposureRules cap a company's exposure at 25,000.00, five servers'
// worth, and leave two servers to an operator.
const exposureRules = `version: e2e-exposure-1
rules:
  - id: exposure-cap
    when: exposure.open_net + offer.total_net > 2500000
    outcome: decline
    reason: {code: exposure_limit, en: "Too much open.", de: "Zu viel offen.", nl: "Te veel open."}
  - id: two-servers-reviewed
    when: offer.lines.exists(l, l.quantity == 2)
    outcome: manual
    reason: {code: two_servers, en: "Reviewed.", de: "Geprüft.", nl: "Beoordeeld."}
default: {outcome: accept, reason: {code: ok, en: "OK.", de: "OK.", nl: "OK."}}
`

// A manual review's reservation goes when its deadline declines the
// offer; then twenty customers of one company accept at once, through the
// Customer-Facing API, real workflows and PostgreSQL, against a limit that
// fits five: exactly five are accepted.
func TestExposureLimitHoldsUnderConcurrentCheckouts(t *testing.T) {
	s := newCheckoutStackWith(t, config.Production, withRules(writeRules(t, "rules.yaml", exposureRules), ""), func(c *config.Config) {
		c.Risk.ManualReviewDeadline = 2 * time.Second
		c.RateLimit.Address = config.BucketConfig{PerSecond: 1000, Burst: 1000}
	})
	ctx := t.Context()

	id, customer := s.offer(t, "deadline", 2)
	if _, err := customer.Checkout(ctx, choice); err != nil {
		t.Fatal(err)
	}
	reviewed := uuid.MustParse(id)
	s.awaitDecided(t, reviewed)
	if got := s.exposure(t); got != 1_000_000 {
		t.Errorf("the manual review reserved %d, want 1000000", got)
	}
	s.awaitStatus(t, reviewed, offers.Declined)
	if got := s.exposure(t); got != 0 {
		t.Errorf("after the review's deadline declined it: exposure %d, want 0", got)
	}

	const racers = 20
	customers := make([]*customerclient.Customer, racers)
	prepared := make([]time.Time, racers)
	ids := make([]uuid.UUID, racers)
	for i := range racers {
		id, c := s.offer(t, "race-"+string(rune('a'+i)), 1)
		at, err := c.Prepare(ctx, choice)
		if err != nil {
			t.Fatal(err)
		}
		ids[i], customers[i], prepared[i] = uuid.MustParse(id), c, at
	}
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() {
			if _, err := customers[i].Accept(context.Background(), prepared[i], ""); err != nil {
				t.Errorf("acceptance %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	count := map[offers.Status]int{}
	for _, id := range ids {
		count[s.awaitDecided(t, id)]++
	}
	if count[offers.Accepted] != 5 || count[offers.Declined] != 15 {
		t.Errorf("of %d concurrent acceptances: %v, want 5 accepted and 15 declined", racers, count)
	}
	if got := s.exposure(t); got != 2_500_000 {
		t.Errorf("exposure %d, want the five accepted offers' 2500000", got)
	}
}

// awaitStatus waits until an offer has a status.
func (s checkoutStack) awaitStatus(t *testing.T, id uuid.UUID, want offers.Status) {
	t.Helper()
	if got := s.await(t, id, func(o dbgen.Offer) bool { return offers.Status(o.Status) == want }); got != want {
		t.Fatalf("offer %s is %s, want %s", id, got, want)
	}
}

// awaitDecided waits until the rules' decision on an offer took effect:
// it left review, or was logged as left to an operator.
func (s checkoutStack) awaitDecided(t *testing.T, id uuid.UUID) offers.Status {
	t.Helper()
	return s.await(t, id, func(o dbgen.Offer) bool {
		_, err := s.store.GetRiskDecisionByOffer(t.Context(), id)
		return offers.Status(o.Status) != offers.Created && err == nil
	})
}

// await polls an offer's row until done holds (for a minute at most) and
// answers its status then.
func (s checkoutStack) await(t *testing.T, id uuid.UUID, done func(dbgen.Offer) bool) offers.Status {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		o, err := s.store.GetOfferForOperator(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if done(o) || time.Now().After(deadline) {
			return offers.Status(o.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s checkoutStack) sellerID(t *testing.T, offerID uuid.UUID) uuid.UUID {
	t.Helper()
	o, err := s.store.GetOfferForOperator(t.Context(), offerID)
	if err != nil {
		t.Fatal(err)
	}
	return o.SellerID
}

// exposure is the checkout customer's (customerclient.EndCustomer's)
// exposure in euros, by its VAT id.
func (s checkoutStack) exposure(t *testing.T) int64 {
	t.Helper()
	e, err := s.store.CompanyExposure(t.Context(), dbgen.CompanyExposureParams{Keys: []string{"vat:DE123456789"}, Currency: "EUR"})
	if err != nil {
		t.Fatal(err)
	}
	return e.OpenNet
}

// `tenure risk limits` sets, removes and prints a seller's limits; the
// risk commands refuse bad input naming it.
func TestRiskLimitsAndBadInput(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 2)
	seller, err := auth.CreateSeller(t.Context(), store, "Limited Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL)
	id := seller.Seller.ID.String()
	out := string(tenureCLI(t, env, "risk", "limits", id, "--set", "max_offer_net=1500000", "--set", "max_exposure_net=9000000"))
	if !strings.Contains(out, "max_exposure_net  9000000") || !strings.Contains(out, "max_offer_net     1500000") {
		t.Errorf("setting limits printed:\n%s", out)
	}
	out = string(tenureCLI(t, env, "risk", "limits", id, "--unset", "max_exposure_net"))
	if strings.Contains(out, "max_exposure_net") || !strings.Contains(out, "max_offer_net") {
		t.Errorf("removing a limit printed:\n%s", out)
	}
	limits, err := store.ListSellerRiskLimits(t.Context(), seller.Seller.ID)
	if err != nil || len(limits) != 1 || limits[0].Name != "max_offer_net" || limits[0].Amount != 1_500_000 {
		t.Errorf("stored limits %+v, %v", limits, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"risk", "limits", id, "--set", "Max=1"}, `--set "Max=1": give NAME=AMOUNT`},
		{[]string{"risk", "limits", id, "--set", "max_offer_net=1.5"}, `--set "max_offer_net=1.5": give NAME=AMOUNT`},
		{[]string{"risk", "limits", id, "--unset", "nope"}, "--unset nope: the seller has no such limit"},
		{[]string{"risk", "limits", uuid.NewString()}, "no seller"},
		{[]string{"risk", "limits", "x.y"}, `"x.y" is not a seller id`},
		{[]string{"risk", "decisions", "--offer", "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f"}, "no offer 0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f"},
		{[]string{"risk", "decisions"}, "give exactly one of --offer and --outcome"},
		{[]string{"risk", "decisions", "--outcome", "maybe"}, `--outcome must be accept, decline or manual, got "maybe"`},
		{[]string{"risk", "backtest", "--since", "30d"}, "give exactly one of --rules and --shadow"},
		{[]string{"risk", "backtest", "--shadow", "--since", "3x"}, `"3x" is not a period such as 30d or 12h`},
		{[]string{"risk", "check"}, `required flag(s) "rules" not set`},
	} {
		out, err := tenureCLIFails(t, env, c.args...)
		if err == nil || !strings.Contains(out, c.want) {
			t.Errorf("tenure %s: %v\n%s\nwant %q", strings.Join(c.args, " "), err, out, c.want)
		}
	}
	if limits, _ := store.ListSellerRiskLimits(t.Context(), seller.Seller.ID); len(limits) != 1 {
		t.Errorf("refused commands changed the limits: %+v", limits)
	}
}
