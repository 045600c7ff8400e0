package offers

import (
	"fmt"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/refusal"
)

// reject refuses a payload, naming the products at fault if any.
func reject(kind refusal.Kind, refs []catalog.Reference, format string, args ...any) *refusal.Error {
	return &refusal.Error{Kind: kind, Message: fmt.Sprintf(format, args...), References: refs}
}

// invalid refuses a value beyond Tenure's limits, naming the field.
func invalid(format string, args ...any) *refusal.Invalid { return refusal.Invalidf(format, args...) }

// ReferenceInUse is the refusal of a reference an active offer holds.
func ReferenceInUse(reference string) *refusal.Error {
	return reject(refusal.DuplicateSellerOfferReference, nil, "seller_offer_reference %q belongs to an active offer", reference)
}
