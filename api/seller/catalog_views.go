package seller

import (
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
)

// contractTerms says how a catalog product can be paid for: nothing unless
// it can be financed; then paying now, and renting when it is offered for
// rent (with the recommended term).
func contractTerms(sellable bool, p pricing.Product, engine *pricing.Engine) sellerapi.ContractTermsAvailability {
	if !sellable {
		return sellerapi.ContractTermsAvailability{}
	}
	terms := engine.Rent(p)
	out := sellerapi.ContractTermsAvailability{CanPayNow: true, CanRent: len(terms) > 0}
	if rec, ok := engine.Recommended(terms); ok {
		out.Rent = &sellerapi.RentDuration{Duration: int64(rec.Duration)}
	}
	return out
}

func catalogProduct(it catalog.Item, term string, engine *pricing.Engine) sellerapi.CatalogProduct {
	refs := referencesView(it.References)
	archived := it.Archived
	out := sellerapi.CatalogProduct{
		Archived:                &archived,
		AvailableContractTerms:  contractTerms(catalog.Sellable(it.Product), catalog.PricingProduct(it.Product), engine),
		Description:             optional.NonZero(it.Description),
		Ean:                     optional.NonZero(it.Ean),
		ListPrice:               sellerapi.Money{Currency: it.Currency, Net: it.PriceNet, Gross: it.PriceGross},
		Manufacturer:            it.Manufacturer,
		Mpn:                     optional.NonZero(it.Mpn),
		Origin:                  it.Origin,
		PrettyId:                optional.NonZero(it.PrettyID),
		PricingCategory:         optional.NonZero(it.PricingCategory),
		ProductId:               it.ID.String(),
		Reference:               catalog.MatchingReference(it.References, term).Reference,
		SellerProductReferences: refs,
		Subtitle:                optional.NonZero(it.Subtitle),
		Title:                   it.Title,
	}
	if it.BaseRentalNet != nil && it.BaseRentalGross != nil {
		out.BaseRentalPrice = &sellerapi.Money{Currency: it.Currency, Net: *it.BaseRentalNet, Gross: *it.BaseRentalGross}
	}
	return out
}
