package contracts

import (
	"slices"
	"testing"

	"github.com/tenurehq/tenure/domain/orders"
)

// A contract rents its line's units and its rented sublines' units, found
// at the positions orders.FromOffer gave them.
func TestAssetPositions(t *testing.T) {
	doc := orders.Document{Lines: []orders.Line{
		{Quantity: 2, ContractType: orders.Rent, Sublines: []orders.Line{
			{Quantity: 1, ContractType: orders.Rent},
			{Quantity: 3, ContractType: orders.PayNow},
		}},
		{Quantity: 1, ContractType: orders.PayNow},
		{Quantity: 2, ContractType: orders.Rent, Sublines: []orders.Line{{Quantity: 2, ContractType: orders.Rent}}},
	}}
	for line, want := range map[int][]int32{0: {0, 1, 2}, 2: {7, 8, 9, 10}} {
		got, err := AssetPositions(doc, line)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("line %d: %v %v, want %v", line, got, err, want)
		}
	}
	if _, err := AssetPositions(doc, 3); err == nil {
		t.Error("a line the order lacks has positions")
	}
}
