package pricing

import (
	"fmt"
	"slices"
	"strings"
)

// ContractType is how the customer pays for a line: at once or by renting.
type ContractType string

// The contract types, in the contract's words.
const (
	ContractPayNow ContractType = "pay_now"
	ContractRent   ContractType = "rent"
)

// LinePayNowTermID is the id of a line's pay-now term: the term's id of
// the Seller API's pricing results after the line id. Term and service ids
// are derived from the line id, so they are stable across re-pricing and
// name their line on their own.
func LinePayNowTermID(lineID string) string { return lineID + "-" + PayNowTermID }

// LineRentTermID is the id of a line's rent term of some months.
func LineRentTermID(lineID string, months int) string { return lineID + "-" + RentTermID(months) }

// ServiceID is the id of a service of some type offered with a line; the
// type's underscores become hyphens, as ids are letters, digits and hyphens.
func ServiceID(lineID, serviceType string) string {
	return lineID + "-" + strings.ReplaceAll(serviceType, "_", "-")
}

// Selection is the customer's choice for one line.
type Selection struct {
	LineID string
	// TermID is one of the line's contract term ids; empty chooses the
	// line's default term.
	TermID string
	// ServiceIDs are services offered with the line, each at most once.
	ServiceIDs []string
}

// RefusedSelection refuses a customer's choice: it names every line that
// cannot be chosen that way and why. Nothing of the choice applies.
type RefusedSelection struct {
	Problems []SelectionProblem
}

// SelectionProblem is one thing wrong with the choice for a line.
type SelectionProblem struct {
	LineID  string
	Message string
}

// Error lists the problems, each with its line.
func (r *RefusedSelection) Error() string {
	msgs := make([]string, len(r.Problems))
	for i, p := range r.Problems {
		msgs[i] = fmt.Sprintf("line %q: %s", p.LineID, p.Message)
	}
	return strings.Join(msgs, "; ")
}

// resolve applies a selection to a line's options: the chosen term (the
// default for an empty id) and services in the order they are offered.
func (o lineOptions) resolve(s Selection) (ContractTerm, []LineService, []string) {
	var problems []string
	term := o.defaultTerm
	if s.TermID != "" {
		found := false
		for _, t := range o.terms {
			if t.ID == s.TermID {
				term, found = t, true
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("contract terms %q are not offered for this line; choose one of %s", s.TermID, strings.Join(o.termIDs(), ", ")))
		}
	}
	chosen := map[string]bool{}
	for _, id := range s.ServiceIDs {
		switch {
		case chosen[id]:
			problems = append(problems, fmt.Sprintf("service %q is selected twice", id))
		case !slices.Contains(serviceIDs(o.services), id) && len(o.services) == 0:
			problems = append(problems, fmt.Sprintf("service %q is not available: this line offers no services", id))
		case !slices.Contains(serviceIDs(o.services), id):
			problems = append(problems, fmt.Sprintf("service %q is not available for this line; choose among %s", id, strings.Join(serviceIDs(o.services), ", ")))
		}
		chosen[id] = true
	}
	if len(s.ServiceIDs) > 0 && term.Type != ContractRent {
		problems = append(problems, "services come with renting only: choose a rent term or no services")
	}
	var services []LineService
	for _, svc := range o.services {
		if chosen[svc.ID] {
			services = append(services, svc)
		}
	}
	return term, services, problems
}

func (o lineOptions) termIDs() []string {
	ids := make([]string, len(o.terms))
	for i, t := range o.terms {
		ids[i] = t.ID
	}
	return ids
}
