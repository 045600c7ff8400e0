package services

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/listing"
)

// List returns one page of a seller's offers and how many match in all.
func (s *Offers) List(ctx context.Context, sellerID uuid.UUID, f listing.Filter) ([]offers.Stored, int64, error) {
	rows, err := s.Store.ListOffers(ctx, dbgen.ListOffersParams{
		SellerID:     sellerID,
		Query:        f.QueryPattern(),
		CreatedBy:    f.CreatedByList(),
		PartnersOnly: f.PartnersOnly,
		IDGt:         f.IDGt,
		IDGte:        f.IDGte,
		IDLt:         f.IDLt,
		IDLte:        f.IDLte,
		CreatedAtGt:  f.CreatedAtGt,
		CreatedAtGte: f.CreatedAtGte,
		CreatedAtLt:  f.CreatedAtLt,
		CreatedAtLte: f.CreatedAtLte,
		SortBy:       f.SortBy,
		Descending:   f.Descending,
		RowLimit:     f.Limit,
		RowOffset:    f.Offset(),
	})
	if err != nil {
		return nil, 0, err
	}
	out := make([]offers.Stored, len(rows))
	var total int64
	for i, r := range rows {
		total = r.TotalCount
		if out[i], err = offers.Decode(r.Offer); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// Newest returns one page of a seller's offers, newest first, matching
// the filter's query and creators, older than its IDLt: the portal's
// list, which shows no count of every match (counting them reads every
// offer of the seller).
func (s *Offers) Newest(ctx context.Context, sellerID uuid.UUID, f listing.Filter) ([]offers.Stored, error) {
	rows, err := s.Store.ListOffersNewest(ctx, dbgen.ListOffersNewestParams{
		SellerID: sellerID, Query: f.QueryPattern(), CreatedBy: f.CreatedByList(), IDLt: f.IDLt, RowLimit: f.Limit,
	})
	if err != nil {
		return nil, err
	}
	out := make([]offers.Stored, len(rows))
	for i, r := range rows {
		if out[i], err = offers.Decode(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}
