package console

import (
	"github.com/tenurehq/tenure/services"
)

// timelineStep is one step of an offer's timeline as its page shows it.
type timelineStep struct {
	At, AtISO, Kind, KindCode, What, Detail, Who, Outcome string
	// OrderID names the order the offer became, on its step.
	OrderID string
}

// stepOf is a step of the timeline in the page's language: the kind and
// the operators' actions and outcomes translated, the events' types and
// the endpoints' answers as the API and the receivers name them.
func stepOf(v view, s services.OfferStep) timelineStep {
	out := timelineStep{At: formatTime(s.At), AtISO: isoTime(s.At), Kind: v.T("timeline." + string(s.Kind)), KindCode: string(s.Kind),
		What: s.What, Detail: s.Detail, Who: s.Who, Outcome: s.Outcome}
	switch s.Kind {
	case services.OfferStepOperator:
		out.What, out.Outcome = v.T("action."+s.What), v.T("audit.outcome."+s.Outcome)
	case services.OfferStepRisk:
		out.What = v.T("risk.outcome." + s.What)
	case services.OfferStepOrder:
		out.OrderID = s.OrderID.String()
	}
	return out
}
