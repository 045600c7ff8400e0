package orders

import (
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/weburl"
)

// CheckShipment refuses a shipment that lists nothing, which seller.yaml
// does not state, and a tracking link a customer may not follow (urls;
// empty stands for none); the guard has checked its limits, and whether it
// fits the order is the shipping activity's to say.
func CheckShipment(s Shipment, urls weburl.Rule) error {
	if len(s.SerialNumbers) == 0 {
		return refusal.Invalidf("field serial_numbers must list at least one shipped item")
	}
	if s.TrackingURL != "" {
		if err := urls.Check(s.TrackingURL); err != nil {
			return refusal.Invalidf("field tracking_url %s", err)
		}
	}
	return CheckMetadata(s.Metadata)
}

// CheckMetadata refuses order metadata the guard cannot, as offers'.
func CheckMetadata(m map[string]string) error {
	return offers.CheckMetadata("metadata", m)
}
