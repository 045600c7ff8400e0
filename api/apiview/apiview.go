// Package apiview renders pricing and catalog values in the shapes of the
// Seller API, for the API handlers and for the services whose records the
// API returns as they are stored (offers, orders).
package apiview

import (
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
)

// MoneyWithTax is an amount with its tax rate.
func MoneyWithTax(m pricing.Money) sellerapi.MoneyWithTax {
	return sellerapi.MoneyWithTax{Currency: m.Currency, Net: m.Net, Gross: m.Gross, TaxRate: m.TaxRate}
}

// Money is an amount without its tax rate.
func Money(m pricing.Money) sellerapi.Money {
	return sellerapi.Money{Currency: m.Currency, Net: m.Net, Gross: m.Gross}
}

// PayNowTerm is the pay-now contract term of an amount.
func PayNowTerm(m pricing.Money) *sellerapi.PayNowTerm {
	id := pricing.PayNowTermID
	return &sellerapi.PayNowTerm{Amount: MoneyWithTax(m), Id: &id}
}

// RentTerm is the rent contract term of one duration.
func RentTerm(t pricing.Term) sellerapi.RentTerm {
	id := pricing.RentTermID(t.Duration)
	return sellerapi.RentTerm{Duration: sellerapi.RentalTermMonths(t.Duration), Id: &id, MonthlyAmount: MoneyWithTax(t.Monthly)}
}

// RentTerms lists terms; nil when there are none, so the field is left out.
func RentTerms(terms []pricing.Term) *[]sellerapi.RentTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]sellerapi.RentTerm, len(terms))
	for i, t := range terms {
		out[i] = RentTerm(t)
	}
	return &out
}

// ContractTypes are the ways a priced line can be paid for.
func ContractTypes(rent []pricing.Term) []sellerapi.ContractType {
	if len(rent) == 0 {
		return []sellerapi.ContractType{sellerapi.PayNow}
	}
	return []sellerapi.ContractType{sellerapi.PayNow, sellerapi.Rent}
}

// Reference is a catalog reference pair in the API's shape.
func Reference(r catalog.Reference) sellerapi.SellerProductReference {
	return sellerapi.SellerProductReference{Source: r.Source, Reference: r.Reference}
}

// CatalogReference is an API reference pair in the catalog's shape.
func CatalogReference(r sellerapi.SellerProductReference) catalog.Reference {
	return catalog.Reference{Source: r.Source, Reference: r.Reference}
}
