package orders

import (
	"encoding/json"
	"fmt"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
)

// SellerOf is what an order says about its seller.
func SellerOf(s dbgen.Seller) (Seller, error) {
	var address offers.Address
	if err := json.Unmarshal(s.Address, &address); err != nil {
		return Seller{}, fmt.Errorf("seller %s has an unreadable address: %w", s.ID, err)
	}
	return Seller{
		ID:                     s.ID,
		Name:                   s.Name,
		Email:                  s.Email,
		Currency:               s.Currency,
		Address:                address,
		ProductReferenceSource: s.ProductReferenceSource,
	}, nil
}
