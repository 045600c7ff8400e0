package orders

import (
	"encoding/json"
	"fmt"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db/dbgen"
)

// SellerInfo is what an order says about its seller. Tenure offers none of
// the optional capabilities the contract lists, so they are all false.
func SellerInfo(s dbgen.Seller) (sellerapi.SellerInfo, error) {
	var address sellerapi.Address
	if err := json.Unmarshal(s.Address, &address); err != nil {
		return sellerapi.SellerInfo{}, fmt.Errorf("seller %s has an unreadable address: %w", s.ID, err)
	}
	return sellerapi.SellerInfo{
		Address:                address,
		Currency:               s.Currency,
		Email:                  s.Email,
		Id:                     s.ID.String(),
		Name:                   s.Name,
		ProductReferenceSource: s.ProductReferenceSource,
	}, nil
}
