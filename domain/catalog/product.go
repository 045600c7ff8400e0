// Package catalog is the sellers' product catalog: what a product to import
// looks like, how it is validated, how it is categorised (supported,
// unsupported, to be reviewed), how batches are upserted by reference, and
// how products are found again (by reference, by term, by filters). The
// Seller API's batch import and the CSV import jobs both go through it.
package catalog

import (
	"github.com/tenurehq/tenure/domain/pricing"
)

// Reference is a (source, reference) pair that identifies a product of a
// seller; a pair belongs to at most one product.
type Reference struct {
	Source    string `json:"source"`
	Reference string `json:"reference"`
}

// Money is an amount as a seller sends it: integer minor units, with an
// optional tax rate (percent × 100).
type Money struct {
	Currency string `json:"currency"`
	Net      int64  `json:"net"`
	Gross    int64  `json:"gross"`
	TaxRate  *int64 `json:"tax_rate,omitempty"`
}

// Identifier is a standard product identifier such as an EAN.
type Identifier struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// Category is one of the seller's own categories.
type Category struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	ParentID string `json:"parent_id,omitempty"`
}

// Detail is a free-form product attribute, e.g. memory = 16 GB.
type Detail struct {
	Property string `json:"property"`
	Value    string `json:"value"`
}

// ProductInput is a product to import as the seller sent it, not yet
// validated. Absent optional texts are empty strings.
type ProductInput struct {
	Title           string       `json:"title"`
	Subtitle        string       `json:"subtitle,omitempty"`
	Description     string       `json:"description,omitempty"`
	Manufacturer    string       `json:"manufacturer,omitempty"`
	Type            string       `json:"type,omitempty"`
	IsActive        bool         `json:"is_active"`
	Price           Money        `json:"price"`
	BaseRentalPrice *Money       `json:"base_rental_price,omitempty"`
	References      []Reference  `json:"references"`
	Identifiers     []Identifier `json:"identifiers,omitempty"`
	Categories      []Category   `json:"categories,omitempty"`
	Details         []Detail     `json:"details,omitempty"`
	ImageURL        string       `json:"image_url,omitempty"`
	ShopURL         string       `json:"shop_url,omitempty"`
}

// Product is a validated product, ready to be stored: its references are
// unique, its prices carry a resolved tax rate, and its EAN and MPN are
// picked out of the identifiers.
type Product struct {
	ProductInput
	ListPrice  pricing.Money
	BaseRental *pricing.Money
	EAN        string
	MPN        string
}

// PrettyID is the display id of a product: its first reference.
func (p Product) PrettyID() string { return p.References[0].Reference }

// Status says whether a product can be financed.
type Status string

// The support statuses of a product.
const (
	Supported    Status = "supported"
	Unsupported  Status = "unsupported"
	ToBeReviewed Status = "to_be_reviewed"
)

// Origin says how a product entered the catalog: `manual` (the seller put
// it there, by batch or CSV import), `automatic` (Tenure created it) or
// `central_catalog`.
type Origin string

// OriginManual is a product the seller imported.
const OriginManual Origin = "manual"
