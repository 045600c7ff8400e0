package discounts

import "fmt"

// Reason says why a discount code cannot be applied, in the words of the
// Customer-Facing API's InvalidDiscountCodeError.
type Reason string

// The reasons a code cannot be applied.
const (
	// NotFound: the seller has no such code.
	NotFound Reason = "not_found"
	// Expired: the validity window is over, or the seller deactivated it.
	Expired Reason = "expired"
	// Exhausted: used by as many offers as the seller allows.
	Exhausted Reason = "exhausted"
	// NotApplicable: not valid yet, or not for this offer.
	NotApplicable Reason = "not_applicable"
)

// Invalid is a code that cannot be applied, with why.
type Invalid struct {
	Reason  Reason
	Message string
}

func (e *Invalid) Error() string { return e.Message }

func invalid(reason Reason, format string, args ...any) *Invalid {
	return &Invalid{Reason: reason, Message: fmt.Sprintf(format, args...)}
}
