package orders

import (
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/catalog"
)

// Allocation is one asset a shipment ships, with its serial number.
type Allocation struct {
	AssetID      uuid.UUID
	SerialNumber string
}

// ShipmentError explains why a shipment does not fit its order; its text
// is shown to the merchant.
type ShipmentError struct{ Reason string }

func (e *ShipmentError) Error() string { return e.Reason }

// Allocate matches a shipment's serial numbers to the order's unshipped
// assets by seller product reference, in asset order. Every asset with a
// rent option needs a serial number; an item without one is sent with an
// empty serial number. It also reports whether the shipment ships the
// last unshipped assets.
func Allocate(assets []Asset, s Shipment) (allocations []Allocation, complete bool, err error) {
	if len(s.SerialNumbers) == 0 {
		return nil, false, &ShipmentError{"serial_numbers must list at least one shipped item"}
	}
	taken := map[uuid.UUID]bool{}
	seen := map[string]bool{}
	for _, sn := range s.SerialNumbers {
		if sn.SerialNumber != "" {
			if seen[sn.SerialNumber] {
				return nil, false, &ShipmentError{fmt.Sprintf("serial number %q is listed twice", sn.SerialNumber)}
			}
			seen[sn.SerialNumber] = true
		}
		asset, ok := nextUnshipped(assets, taken, sn.Source, sn.Reference)
		if !ok {
			return nil, false, &ShipmentError{fmt.Sprintf("the order has no unshipped item with seller_product_reference %s/%s", sn.Source, sn.Reference)}
		}
		if asset.RequiresSerialNumber && sn.SerialNumber == "" {
			return nil, false, &ShipmentError{fmt.Sprintf("item %q (%s/%s) has a rent option and must be shipped with a serial number", asset.Title, sn.Source, sn.Reference)}
		}
		taken[asset.ID] = true
		allocations = append(allocations, Allocation{AssetID: asset.ID, SerialNumber: sn.SerialNumber})
	}
	for _, a := range assets {
		if a.Status != AssetCreated || taken[a.ID] {
			continue
		}
		return allocations, false, nil
	}
	return allocations, true, nil
}

func nextUnshipped(assets []Asset, taken map[uuid.UUID]bool, source, reference string) (Asset, bool) {
	for _, a := range assets {
		if a.Status == AssetCreated && !taken[a.ID] && slices.Contains(a.References, catalog.Reference{Source: source, Reference: reference}) {
			return a, true
		}
	}
	return Asset{}, false
}
