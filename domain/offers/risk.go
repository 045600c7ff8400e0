package offers

import (
	"time"

	"github.com/tenurehq/tenure/config"
)

// Review says how an offer in pending_review gets its decision.
type Review string

const (
	// ReviewBySimulation waits for the sandbox's scenario simulations.
	ReviewBySimulation Review = "simulation"
	// ReviewByRules runs the production risk rules, then waits for an
	// operator when they cannot decide.
	ReviewByRules Review = "rules"
)

// ReviewOf is how offers are reviewed in an environment.
func ReviewOf(env config.Environment) Review {
	if env == config.Sandbox {
		return ReviewBySimulation
	}
	return ReviewByRules
}

// Decision is the outcome of the risk rules.
type Decision string

const (
	// DecisionAccept accepts the offer.
	DecisionAccept Decision = "accept"
	// DecisionDecline declines the offer.
	DecisionDecline Decision = "decline"
	// DecisionManual leaves the offer to an operator.
	DecisionManual Decision = "manual"
)

// ReviewResult is the risk rules' decision and why, as the offer workflows
// started before revision 2 receive it (activities.Offers.ReviewRisk).
type ReviewResult struct {
	Decision Decision
	Reason   string
	// ManualDeadline is how long an operator has to decide.
	ManualDeadline time.Duration
}

// RiskReason explains a risk decision: a stable code and a text in each
// language Tenure speaks (package risk's Reason).
type RiskReason struct {
	Code string `json:"code"`
	EN   string `json:"en"`
	DE   string `json:"de"`
	NL   string `json:"nl"`
}

// RiskReview is the production risk rules' decision on an offer as the
// offer's document keeps it, for the views that tell the seller (the
// decision log, package risk, keeps the rule and what it saw).
type RiskReview struct {
	Outcome        Decision   `json:"outcome"`
	Reason         RiskReason `json:"reason"`
	RuleSetVersion string     `json:"rule_set_version"`
	DecidedAt      time.Time  `json:"decided_at"`
}

// SimulatedDecline is the reason a sandbox offer declined by the
// mark_offer_declined scenario shows the seller: no risk rules decide in
// the sandbox, and a merchant integrating there still meets the shape of
// a production decline.
var SimulatedDecline = RiskReason{
	Code: "simulated",
	EN:   "Declined by the sandbox scenario mark_offer_declined; no risk rules ran.",
	DE:   "Vom Sandbox-Szenario mark_offer_declined abgelehnt; es liefen keine Risikoregeln.",
	NL:   "Afgewezen door het sandboxscenario mark_offer_declined; er liepen geen risicoregels.",
}

// In is the reason's text in a language Tenure speaks (en, de, nl) and
// that language; any other language, or none, gets English.
func (r RiskReason) In(language string) (text, in string) {
	switch language {
	case "de":
		return r.DE, language
	case "nl":
		return r.NL, language
	}
	return r.EN, "en"
}
