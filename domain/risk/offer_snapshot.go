package risk

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/optional"
)

// Facts are what a snapshot of an offer reads besides the offer: its
// products, its seller with the seller's limits, and the company's
// exposure.
type Facts struct {
	Products map[uuid.UUID]dbgen.Product
	Seller   dbgen.Seller
	// Limits are the seller's limits by name.
	Limits   map[string]int64
	Exposure Exposure
}

// OfferSnapshot is the snapshot the rules decide an offer by.
func OfferSnapshot(o offers.Stored, f Facts) (Snapshot, error) {
	d := o.Document
	snap := Snapshot{
		Version:  SnapshotVersion,
		Offer:    Offer{ID: o.Row.ID.String(), Currency: d.Currency(), SalesChannel: o.Row.SalesChannel, Lines: []Line{}, Categories: []string{}},
		Customer: customerOf(d),
		Seller:   Seller{ID: f.Seller.ID.String(), Name: f.Seller.Name, Limits: map[string]int64{}},
		Exposure: f.Exposure,
	}
	if d.Pricing != nil {
		snap.Offer.TotalNet, snap.Offer.TotalGross = d.Pricing.InsteadOf.Net, d.Pricing.InsteadOf.Gross
	}
	if a := d.ShippingAddress; a != nil {
		snap.Offer.ShippingCountry = strings.ToUpper(a.CountryCode)
	}
	maps.Copy(snap.Seller.Limits, f.Limits)
	categories := map[string]bool{}
	for i, l := range d.Lines {
		line := Line{Quantity: l.Quantity, PricingCategory: l.PricingCategory, Categories: []string{}}
		line.Net, line.Gross = linePrice(d, i)
		line.ContractType, line.Duration = choiceOf(d, l)
		for j, part := range append([]offers.Line{l}, l.Sublines...) {
			categories[part.PricingCategory] = true
			if part.ProductID == nil {
				continue
			}
			product, ok := f.Products[*part.ProductID]
			if !ok {
				continue
			}
			names, err := categoryNames(product)
			if err != nil {
				return Snapshot{}, err
			}
			for _, n := range names {
				categories[n] = true
			}
			if j == 0 {
				line.ProductType = optional.Value(product.ProductType)
				line.Categories = names
			}
		}
		snap.Offer.Lines = append(snap.Offer.Lines, line)
	}
	for c := range categories {
		if c != "" {
			snap.Offer.Categories = append(snap.Offer.Categories, c)
		}
	}
	slices.Sort(snap.Offer.Categories)
	return snap, nil
}

// ProductIDs are the products of an offer's lines and sublines.
func ProductIDs(d offers.Document) []uuid.UUID {
	var ids []uuid.UUID
	for _, l := range d.Lines {
		for _, part := range append([]offers.Line{l}, l.Sublines...) {
			if part.ProductID != nil && !slices.Contains(ids, *part.ProductID) {
				ids = append(ids, *part.ProductID)
			}
		}
	}
	return ids
}

func customerOf(d offers.Document) Customer {
	company := optional.Value(d.Customer.Company)
	end := optional.Value(d.EndCustomer())
	c := Customer{
		Name:               optional.Value(company.Name),
		VATNumber:          optional.Value(company.VATNumber),
		TaxNumber:          optional.Value(company.TaxNumber),
		HasBillingAddress:  company.BillingAddress != nil,
		LegalForm:          end.LegalForm,
		RegistrationNumber: end.RegistrationNumber,
		CompanyAgeMonths:   -1,
	}
	if a := company.BillingAddress; a != nil {
		c.Country = strings.ToUpper(a.CountryCode)
	}
	return c
}

// linePrice is the purchase price of line i with its sublines, for its
// quantity, as the offer's pricing summary has it.
func linePrice(d offers.Document, i int) (net, gross int64) {
	if d.Pricing != nil && i < len(d.Pricing.Items) && d.Pricing.Items[i].LineID == d.Lines[i].ID {
		total := d.Pricing.Items[i].TotalPayNow.Amount
		return total.Net, total.Gross
	}
	l := d.Lines[i]
	return l.Price.Net * l.Quantity, l.Price.Gross * l.Quantity
}

// choiceOf is the contract the customer took a line on: as agreed when
// they accepted, else as chosen so far.
func choiceOf(d offers.Document, l offers.Line) (contractType string, months int64) {
	if a := d.Agreement(); a != nil {
		for _, agreed := range a.Lines {
			if agreed.LineID == l.ID {
				return agreed.ContractType, int64(agreed.Duration)
			}
		}
	}
	return optional.Value(l.SelectedContractType), 0
}

func categoryNames(p dbgen.Product) ([]string, error) {
	var categories []catalog.Category
	if len(p.SellerCategories) > 0 {
		if err := json.Unmarshal(p.SellerCategories, &categories); err != nil {
			return nil, fmt.Errorf("product %s has unreadable categories: %w", p.ID, err)
		}
	}
	names := []string{}
	for _, c := range categories {
		names = append(names, c.Name)
	}
	return names, nil
}
