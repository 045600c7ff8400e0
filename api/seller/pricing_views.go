package seller

import (
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
)

// moneyWithTax is an amount with its tax rate.
func moneyWithTax(m pricing.Money) sellerapi.MoneyWithTax {
	return sellerapi.MoneyWithTax{Currency: m.Currency, Net: m.Net, Gross: m.Gross, TaxRate: m.TaxRate}
}

// money is an amount without its tax rate.
func money(m pricing.Money) sellerapi.Money {
	return sellerapi.Money{Currency: m.Currency, Net: m.Net, Gross: m.Gross}
}

// payNowTerm is the pay-now contract term of an amount.
func payNowTerm(m pricing.Money) *sellerapi.PayNowTerm {
	id := pricing.PayNowTermID
	return &sellerapi.PayNowTerm{Amount: moneyWithTax(m), Id: &id}
}

// rentTerm is the rent contract term of one duration.
func rentTerm(t pricing.Term) sellerapi.RentTerm {
	id := pricing.RentTermID(t.Duration)
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

// contractTypes are the ways a priced line can be paid for.
func contractTypes(rent []pricing.Term) []sellerapi.ContractType {
	if len(rent) == 0 {
		return []sellerapi.ContractType{sellerapi.PayNow}
	}
	return []sellerapi.ContractType{sellerapi.PayNow, sellerapi.Rent}
}

// reference is a catalog reference pair in the API's shape.
func reference(r catalog.Reference) sellerapi.SellerProductReference {
	return sellerapi.SellerProductReference{Source: r.Source, Reference: r.Reference}
}

// catalogReference is an API reference pair in the catalog's shape.
func catalogReference(r sellerapi.SellerProductReference) catalog.Reference {
	return catalog.Reference{Source: r.Source, Reference: r.Reference}
}
