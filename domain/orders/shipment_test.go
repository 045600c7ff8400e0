package orders

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/catalog"
)

func asset(title, source, reference string, rentable bool, status string) Asset {
	refs := []catalog.Reference{{Source: source, Reference: reference}, {Source: "ean", Reference: title}}
	return Asset{ID: uuid.New(), Title: title, References: refs, RequiresSerialNumber: rentable, Status: status}
}

func TestAllocate(t *testing.T) {
	laptop1 := asset("Laptop", "sku", "L1", true, AssetCreated)
	laptop2 := asset("Laptop", "sku", "L1", true, AssetCreated)
	bag := asset("Bag", "sku", "B1", false, AssetCreated)
	shipped := asset("Laptop", "sku", "L1", true, AssetShipped)
	assets := []Asset{shipped, laptop1, laptop2, bag}

	allocations, complete, err := Allocate(assets, Shipment{SerialNumbers: []SerialNumber{
		{Source: "sku", Reference: "L1", SerialNumber: "SN-1"},
		{Source: "sku", Reference: "B1", SerialNumber: ""},
	}})
	if err != nil || complete {
		t.Fatalf("partial shipment: %v complete=%v", err, complete)
	}
	if len(allocations) != 2 || allocations[0].AssetID != laptop1.ID || allocations[1].AssetID != bag.ID {
		t.Errorf("units are taken in order, skipping shipped ones: %+v", allocations)
	}

	// Any of a product's references identifies it.
	_, complete, err = Allocate(assets, Shipment{SerialNumbers: []SerialNumber{
		{Source: "sku", Reference: "L1", SerialNumber: "SN-1"},
		{Source: "ean", Reference: "Laptop", SerialNumber: "SN-2"},
		{Source: "sku", Reference: "B1"},
	}})
	if err != nil || !complete {
		t.Errorf("shipping every unshipped unit completes the order: %v complete=%v", err, complete)
	}
}

func TestAllocateRefusals(t *testing.T) {
	assets := []Asset{asset("Laptop", "sku", "L1", true, AssetCreated), asset("Bag", "sku", "B1", false, AssetCreated)}
	cases := map[string]struct {
		items []SerialNumber
		want  string
	}{
		"nothing":              {nil, "at least one"},
		"missing serial":       {[]SerialNumber{{Source: "sku", Reference: "L1"}}, "must be shipped with a serial number"},
		"unknown reference":    {[]SerialNumber{{Source: "sku", Reference: "X9", SerialNumber: "S"}}, "no unshipped item with seller_product_reference sku/X9"},
		"more units than sold": {[]SerialNumber{{Source: "sku", Reference: "B1"}, {Source: "sku", Reference: "B1"}}, "no unshipped item"},
		"serial twice":         {[]SerialNumber{{Source: "sku", Reference: "L1", SerialNumber: "S"}, {Source: "sku", Reference: "B1", SerialNumber: "S"}}, "listed twice"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := Allocate(assets, Shipment{SerialNumbers: tc.items})
			var se *ShipmentError
			if !errors.As(err, &se) || !strings.Contains(se.Reason, tc.want) {
				t.Errorf("want a ShipmentError with %q, got %v", tc.want, err)
			}
		})
	}
}
