// Package searchattr names the search attributes Tenure's entity workflows
// carry, so operators can filter offers and orders in the Temporal UI
// (TenureSellerId = "..." AND TenureStatus = "pending_review").
package searchattr

import "go.temporal.io/sdk/temporal"

// The search attributes, all keywords.
var (
	// SellerID is the seller an offer or order belongs to.
	SellerID = temporal.NewSearchAttributeKeyKeyword("TenureSellerId")
	// Status is the offer's or order's current status.
	Status = temporal.NewSearchAttributeKeyKeyword("TenureStatus")
	// SellerOfferReference is the merchant's own reference of the offer.
	SellerOfferReference = temporal.NewSearchAttributeKeyKeyword("TenureSellerOfferReference")
)

// All lists the attributes with their types, as the dev server's
// --search-attribute flag and the operator API register them.
func All() map[string]string {
	return map[string]string{
		SellerID.GetName():             "Keyword",
		Status.GetName():               "Keyword",
		SellerOfferReference.GetName(): "Keyword",
	}
}
