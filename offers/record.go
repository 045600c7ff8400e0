package offers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/workflows/offer"
)

// Row is the row a draft is stored as (status created).
func Row(d offer.Draft) (dbgen.CreateOfferParams, error) {
	doc, err := json.Marshal(d.Document)
	if err != nil {
		return dbgen.CreateOfferParams{}, err
	}
	return dbgen.CreateOfferParams{
		ID:                   d.ID,
		SellerID:             d.SellerID,
		SellerOfferReference: d.SellerOfferReference,
		SalesChannel:         d.SalesChannel,
		CreatedBy:            d.CreatedBy,
		Partner:              d.Partner,
		SearchText:           searchText(d),
		Document:             doc,
		ExitRedirect:         d.ExitRedirect,
		SuccessRedirect:      d.SuccessRedirect,
		ExpiresAt:            d.ExpiresAt,
	}, nil
}

// searchText is what the list operations' `query` matches: the reference,
// the customer, the company and the sales agent, lower-cased.
func searchText(d offer.Draft) string {
	parts := []string{d.SellerOfferReference}
	c := d.Document.Customer
	parts = append(parts, deref(c.FullName), string(deref(c.Email)), deref(c.PhoneNumber))
	if c.Company != nil {
		parts = append(parts, deref(c.Company.Name))
	}
	if a := d.Document.SalesAgent; a != nil {
		parts = append(parts, a.Name, string(a.Email))
	}
	return strings.ToLower(strings.Join(parts, "\n"))
}

// Render is the offer as GET /v1/offers/{id} returns it and as the offer
// webhooks send it: the stored document with what the workflow decided.
func Render(row dbgen.Offer) (sellerapi.Offer, error) {
	var doc sellerapi.Offer
	if err := json.Unmarshal(row.Document, &doc); err != nil {
		return sellerapi.Offer{}, fmt.Errorf("offer %s has an unreadable document: %w", row.ID, err)
	}
	doc.Id = row.ID.String()
	doc.Status = sellerapi.OfferStatus(row.Status)
	doc.CreatedAt = row.CreatedAt.UTC()
	doc.ExpiresAt = row.ExpiresAt.UTC()
	if row.SupersededByID != nil {
		by := row.SupersededByID.String()
		doc.SupersededById = &by
	}
	return doc, nil
}

// Load reads and renders one offer of a seller; another seller's offer is
// the query's no-rows error, like a missing one.
func Load(ctx context.Context, q *dbgen.Queries, sellerID, offerID uuid.UUID) (sellerapi.Offer, error) {
	row, err := q.GetOffer(ctx, dbgen.GetOfferParams{SellerID: sellerID, ID: offerID})
	if err != nil {
		return sellerapi.Offer{}, err
	}
	return Render(row)
}
