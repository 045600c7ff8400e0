package orders

import (
	"net/url"
	"unicode/utf8"

	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/refusal"
)

// Limits of shipments.
const (
	maxSerialNumber = 255
	maxTrackingURL  = 2048
	maxShipped      = 10000
)

// CheckShipment refuses a shipment beyond Tenure's limits, naming the
// field; whether it fits the order is the shipping activity's to say.
func CheckShipment(s Shipment) error {
	if len(s.SerialNumbers) == 0 {
		return refusal.Invalidf("field serial_numbers must list at least one shipped item")
	}
	if len(s.SerialNumbers) > maxShipped {
		return refusal.Invalidf("field serial_numbers may list at most %d items", maxShipped)
	}
	if u := s.TrackingURL; u != "" {
		if parsed, err := url.Parse(u); err != nil || !parsed.IsAbs() || utf8.RuneCountInString(u) > maxTrackingURL {
			return refusal.Invalidf("field tracking_url must be an absolute URL of at most %d characters", maxTrackingURL)
		}
	}
	if err := CheckMetadata(s.Metadata); err != nil {
		return err
	}
	for i, sn := range s.SerialNumbers {
		if utf8.RuneCountInString(sn.SerialNumber) > maxSerialNumber {
			return refusal.Invalidf("field serial_numbers[%d].serial_number must be at most %d characters", i, maxSerialNumber)
		}
	}
	return nil
}

// CheckMetadata refuses order metadata beyond Tenure's limits, which are
// the offers'.
func CheckMetadata(m map[string]string) error {
	return offers.CheckMetadata("metadata", m)
}
