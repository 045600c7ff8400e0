package offers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/optional"
)

// Row is the row a draft is stored as (status created).
func Row(d Draft) (dbgen.CreateOfferParams, error) {
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
		SearchText:           searchText(d.SellerOfferReference, d.Document),
		Document:             doc,
		ExitRedirect:         d.ExitRedirect,
		SuccessRedirect:      d.SuccessRedirect,
		ExpiresAt:            d.ExpiresAt,
	}, nil
}

// searchText is what the list operations' `query` matches: the reference,
// the customer, the company and the sales agent, lower-cased.
func searchText(reference string, d Document) string {
	parts := []string{reference}
	c := d.Customer
	parts = append(parts, optional.Value(c.FullName), optional.Value(c.Email), optional.Value(c.Phone))
	if c.Company != nil {
		parts = append(parts, optional.Value(c.Company.Name))
	}
	if a := d.SalesAgent; a != nil {
		parts = append(parts, a.Name, a.Email)
	}
	return strings.ToLower(strings.Join(parts, "\n"))
}

// Stored is an offer as PostgreSQL holds it: its row, which has what the
// workflow decided, and its document.
type Stored struct {
	Row      dbgen.Offer
	Document Document
}

// Decode reads a row's document, of any version this code knows.
func Decode(row dbgen.Offer) (Stored, error) {
	var doc Document
	if err := json.Unmarshal(row.Document, &doc); err != nil {
		return Stored{}, fmt.Errorf("offer %s has an unreadable document: %w", row.ID, err)
	}
	if doc.Version > DocumentVersion {
		return Stored{}, fmt.Errorf("offer %s has a document of version %d, newer than this code's %d", row.ID, doc.Version, DocumentVersion)
	}
	return Stored{Row: row, Document: doc}, nil
}

// Load reads one offer of a seller; another seller's offer is the query's
// no-rows error, like a missing one.
func Load(ctx context.Context, q *dbgen.Queries, sellerID, offerID uuid.UUID) (Stored, error) {
	row, err := q.GetOffer(ctx, dbgen.GetOfferParams{SellerID: sellerID, ID: offerID})
	if err != nil {
		return Stored{}, err
	}
	return Decode(row)
}

// CheckoutRow is the update that stores a customer's change of an open
// offer: the changed document and what lists then find it by.
func CheckoutRow(o Stored, c CustomerChange) (dbgen.SetOfferCheckoutParams, error) {
	doc := o.Document
	doc.ApplyCustomerChange(c)
	raw, err := doc.asCurrentVersion()
	if err != nil {
		return dbgen.SetOfferCheckoutParams{}, err
	}
	return dbgen.SetOfferCheckoutParams{
		SellerID: o.Row.SellerID, ID: o.Row.ID, Document: raw, SearchText: searchText(o.Row.SellerOfferReference, doc),
	}, nil
}

// SubmissionRow is the update that moves an offer from one status to
// another with what its customer agreed to.
func SubmissionRow(o Stored, from, to Status, a Agreement) (dbgen.SubmitOfferCheckoutParams, error) {
	doc := o.Document
	if doc.Checkout == nil {
		doc.Checkout = &CustomerSide{}
	}
	doc.Checkout.Agreement = &a
	raw, err := doc.asCurrentVersion()
	if err != nil {
		return dbgen.SubmitOfferCheckoutParams{}, err
	}
	return dbgen.SubmitOfferCheckoutParams{
		SellerID: o.Row.SellerID, ID: o.Row.ID, FromStatus: string(from), ToStatus: string(to), Document: raw,
	}, nil
}

// RiskReviewRow is the update that stores the risk rules' decision in the
// document of an offer under review.
func RiskReviewRow(o Stored, r RiskReview) (dbgen.SetOfferRiskReviewParams, error) {
	doc := o.Document
	doc.RiskReview = &r
	raw, err := doc.asCurrentVersion()
	if err != nil {
		return dbgen.SetOfferRiskReviewParams{}, err
	}
	return dbgen.SetOfferRiskReviewParams{SellerID: o.Row.SellerID, ID: o.Row.ID, Document: raw}, nil
}

// asCurrentVersion encodes a document read back from a row, perhaps of an
// older version, as the current version: the changes above add what only
// it has.
func (d Document) asCurrentVersion() ([]byte, error) {
	d.Version = DocumentVersion
	return json.Marshal(d)
}
