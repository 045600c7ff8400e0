package risk

import "github.com/tenurehq/tenure/domain/offers"

// Outcome is what a decision does with an offer under review.
type Outcome = offers.Decision

// The outcomes a rule may have.
const (
	Accept  = offers.DecisionAccept
	Decline = offers.DecisionDecline
	Manual  = offers.DecisionManual
)

// outcomes are the outcomes a rule set may name.
var outcomes = []Outcome{Accept, Decline, Manual}

// Reason explains a decision: a stable code for machines (webhooks,
// reports) and a text in en, de and nl for people.
type Reason = offers.RiskReason

// ruleError is the reason of a decision a rule could not make: its
// condition failed at evaluation (a missing map key, an overflow). The
// offer goes to an operator, never through unchecked.
var ruleError = Reason{
	Code: "rule_error",
	EN:   "A risk rule could not be evaluated; an operator reviews the offer.",
	DE:   "Eine Risikoregel konnte nicht ausgewertet werden; ein Mitarbeiter prüft das Angebot.",
	NL:   "Een risicoregel kon niet worden geëvalueerd; een medewerker beoordeelt de offerte.",
}
