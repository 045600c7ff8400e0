package collections

import (
	"time"

	"github.com/tenurehq/tenure/foundation/civil"
)

// FlatFee is the flat fee in cents a debtor in arrears owes under §288
// (5) BGB: 40 euro, no VAT (it is damages, not a service).
const FlatFee = 4000

// FeeStage is the reminder stage (counted from 1) that adds the flat fee
// and, for a business customer, default interest: the first reminder is a
// friendly one, the second says what the arrears cost.
const FeeStage = 2

// DefaultInterestPoints are the points default interest adds to the base
// rate between businesses (§288 (2) BGB), in basis points.
const DefaultInterestPoints = 900

// DefaultInterest is the default interest in cents on owed cents between
// two days: the base rate plus nine points a year, counted actual/365
// (the day the debt fell into arrears excluded, the last included), half
// a cent rounded up. A base rate so negative that the rate is not positive
// gives none.
func DefaultInterest(owed, baseRateBP int64, from, to civil.Date) int64 {
	days := int64(to.Midnight(time.UTC).Sub(from.Midnight(time.UTC)) / (24 * time.Hour))
	rate := baseRateBP + DefaultInterestPoints
	if owed <= 0 || rate <= 0 || days <= 0 {
		return 0
	}
	const denominator = 10_000 * 365
	return (owed*rate*days + denominator/2) / denominator
}
