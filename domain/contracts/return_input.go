package contracts

import (
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/weburl"
)

// Return is the seller's report of assets given back (POST
// /v1/contracts/{id}/returns): their serial numbers and the tracking link
// of the parcel they came back in.
type Return struct {
	SerialNumbers []string
	TrackingURL   string
}

// CheckReturn refuses a return report the schema cannot: no serial number,
// an empty or repeated one, or a tracking link nobody may follow. Whether
// the serial numbers are the contract's is the workflow's to say.
func CheckReturn(r Return, urls weburl.Rule) error {
	if len(r.SerialNumbers) == 0 {
		return refusal.Invalidf("field serial_numbers must list at least one returned asset")
	}
	seen := make(map[string]bool, len(r.SerialNumbers))
	for i, sn := range r.SerialNumbers {
		switch {
		case sn == "":
			return refusal.Invalidf("field serial_numbers[%d] must not be empty", i)
		case seen[sn]:
			return refusal.Invalidf("field serial_numbers[%d] repeats %q", i, sn)
		}
		seen[sn] = true
	}
	if err := urls.Check(r.TrackingURL); err != nil {
		return refusal.Invalidf("field tracking_url %s", err)
	}
	return nil
}
