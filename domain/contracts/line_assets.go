package contracts

import (
	"fmt"

	"github.com/tenurehq/tenure/domain/orders"
)

// AssetPositions are the positions, in the order's assets, of the units a
// rented line's contract rents: the line's own and those of its sublines
// rented with it; a subline bought outright is not the contract's.
//
// An order has one asset per unit of each line and subline, in document
// order: a line's units, then each of its sublines' (orders.FromOffer).
func AssetPositions(doc orders.Document, line int) ([]int32, error) {
	if line < 0 || line >= len(doc.Lines) {
		return nil, fmt.Errorf("the order has no line %d", line)
	}
	var out []int32
	next := int32(0)
	take := func(l orders.Line, rented bool) {
		for range l.Quantity {
			if rented {
				out = append(out, next)
			}
			next++
		}
	}
	for i, l := range doc.Lines {
		take(l, i == line)
		for _, sub := range l.Sublines {
			take(sub, i == line && sub.ContractType == orders.Rent)
		}
	}
	return out, nil
}
