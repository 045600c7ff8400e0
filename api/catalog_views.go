package api

import (
	"strconv"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/catalog"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/pricing"
)

// payNowTermID and rentTermID name the contract terms of pricing results.
const payNowTermID = "pay-now"

func rentTermID(months int) string { return "rent-" + strconv.Itoa(months) }

func moneyWithTax(m pricing.Money) sellerapi.MoneyWithTax {
	return sellerapi.MoneyWithTax{Currency: m.Currency, Net: m.Net, Gross: m.Gross, TaxRate: m.TaxRate}
}

func payNowTerm(m pricing.Money) *sellerapi.PayNowTerm {
	id := payNowTermID
	return &sellerapi.PayNowTerm{Amount: moneyWithTax(m), Id: &id}
}

func rentTerm(t pricing.Term) sellerapi.RentTerm {
	id := rentTermID(t.Duration)
	return sellerapi.RentTerm{Duration: sellerapi.RentalTermMonths(t.Duration), Id: &id, MonthlyAmount: moneyWithTax(t.Monthly)}
}

// rentTerms lists terms; nil when there are none, so the field is left out.
func rentTerms(terms []pricing.Term) *[]sellerapi.RentTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]sellerapi.RentTerm, len(terms))
	for i, t := range terms {
		out[i] = rentTerm(t)
	}
	return &out
}

func reference(r catalog.Reference) sellerapi.SellerProductReference {
	return sellerapi.SellerProductReference{Source: r.Source, Reference: r.Reference}
}

func catalogReference(r sellerapi.SellerProductReference) catalog.Reference {
	return catalog.Reference{Source: r.Source, Reference: r.Reference}
}

// contractTerms says how a catalog product can be paid for: nothing unless
// it can be financed; then paying now, and renting when it is offered for
// rent (with the recommended term).
func contractTerms(p dbgen.Product, engine *pricing.Engine) sellerapi.ContractTermsAvailability {
	if !catalog.Sellable(p) {
		return sellerapi.ContractTermsAvailability{}
	}
	terms := engine.Rent(catalog.PricingProduct(p))
	out := sellerapi.ContractTermsAvailability{CanPayNow: true, CanRent: len(terms) > 0}
	if rec, ok := engine.Recommended(terms); ok {
		out.Rent = &sellerapi.RentDuration{Duration: int64(rec.Duration)}
	}
	return out
}

// optional is nil for an empty text, so the field is left out.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func catalogProduct(it catalog.Item, term string, engine *pricing.Engine) sellerapi.CatalogProduct {
	refs := make([]sellerapi.SellerProductReference, len(it.References))
	for i, r := range it.References {
		refs[i] = reference(r)
	}
	archived := it.Archived
	out := sellerapi.CatalogProduct{
		Archived:                &archived,
		AvailableContractTerms:  contractTerms(it.Product, engine),
		Description:             optional(it.Description),
		Ean:                     optional(it.Ean),
		ListPrice:               sellerapi.Money{Currency: it.Currency, Net: it.PriceNet, Gross: it.PriceGross},
		Manufacturer:            it.Manufacturer,
		Mpn:                     optional(it.Mpn),
		Origin:                  it.Origin,
		PrettyId:                optional(it.PrettyID),
		PricingCategory:         optional(it.PricingCategory),
		ProductId:               it.ID.String(),
		Reference:               catalog.MatchingReference(it.References, term).Reference,
		SellerProductReferences: refs,
		Subtitle:                optional(it.Subtitle),
		Title:                   it.Title,
	}
	if it.BaseRentalNet != nil && it.BaseRentalGross != nil {
		out.BaseRentalPrice = &sellerapi.Money{Currency: it.Currency, Net: *it.BaseRentalNet, Gross: *it.BaseRentalGross}
	}
	return out
}
