package seller

import (
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/foundation/listing"
)

// contractPage is a page of the contract list. Its contracts are in their
// stored shape, which seller.yaml's Contract describes (sellerapi.Contract
// is contracts.Stored): the body of the contract events as well.
func contractPage(page []contracts.Stored, f contracts.ListFilter, total int64) sellerapi.ContractPage {
	return sellerapi.ContractPage{
		Contracts:  page,
		Pagination: pagination(listing.Filter{Limit: f.Limit, Page: f.Page}, total),
	}
}
