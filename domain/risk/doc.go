// Package risk decides production offers under review with a rule set
// written in CEL (the Common Expression Language): an ordered list of
// rules, each a condition over a Snapshot of the offer, its customer, its
// seller and the customer's exposure, with an outcome (accept, decline,
// manual) and a reason in en, de and nl; the first rule whose condition
// holds decides, and the rule set's default applies when none does.
//
// A rule set is compiled once when it is loaded (ParseRuleSet names the rule
// and the position of every error) and evaluated many times (Evaluate is a
// pure function of the snapshot). Without a rule set of its own, a
// deployment decides by DefaultRuleSet, which the five risk.* settings
// generate. A Policy holds the live and the shadow rule set of a worker and
// reloads their files. The decision log (Log) stores every decision with
// its snapshot; Backtest replays the log through a candidate rule set;
// Exposure reserves what a company asks for in the decision's transaction.
package risk
