package orders

import (
	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/refusal"
)

// CheckShipment refuses a shipment that lists nothing, which seller.yaml
// does not state; the guard has checked its limits and the tracking URL's
// format, and whether it fits the order is the shipping activity's to say.
func CheckShipment(s Shipment) error {
	if len(s.SerialNumbers) == 0 {
		return refusal.Invalidf("field serial_numbers must list at least one shipped item")
	}
	return CheckMetadata(s.Metadata)
}

// CheckMetadata refuses order metadata the guard cannot, as offers'.
func CheckMetadata(m map[string]string) error {
	return offers.CheckMetadata("metadata", m)
}
