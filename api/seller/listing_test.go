package seller

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/seller/sellerapi"
)

// Both paginated lists' generated parameters read as the same list
// parameters, the sort ones as their strings.
func TestListParamsOfBothLists(t *testing.T) {
	limit, query, id, at := int64(5), "acme", uuid.New(), time.Now()
	by, order := sellerapi.ListOffersPaginatedParamsSortBy("status"), sellerapi.ListOffersPaginatedParamsSortOrder("desc")
	offers := listParamsOf(sellerapi.ListOffersPaginatedParams{Limit: &limit, Query: &query, SortBy: &by, SortOrder: &order, IdGt: &id, CreatedAtLte: &at})
	if *offers.Limit != 5 || *offers.Query != "acme" || *offers.SortBy != "status" || *offers.SortOrder != "desc" ||
		*offers.IdGt != id || !offers.CreatedAtLte.Equal(at) || offers.Page != nil || offers.IdLt != nil {
		t.Errorf("offers %+v", offers)
	}
	orderBy := sellerapi.ListOrdersPaginatedParamsSortBy("created_at")
	orders := listParamsOf(sellerapi.ListOrdersPaginatedParams{Limit: &limit, SortBy: &orderBy})
	if *orders.Limit != 5 || *orders.SortBy != "created_at" || orders.Query != nil {
		t.Errorf("orders %+v", orders)
	}
}
