package api

import (
	"context"
	"fmt"

	"github.com/tenurehq/tenure/api/apiview"
	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
)

// Pricing request limits.
const (
	// maxPricingItems is the most products (sublines included) one pricing
	// request may carry.
	maxPricingItems = 1000
	// maxQuantity is the largest quantity of one cart or basket entry.
	maxQuantity = 10000
)

// rentalPricing serves the pricing operations. A product that is unknown,
// inactive, archived or unsupported is priced as not financeable, never
// refused; malformed prices in the request are refused.
type rentalPricing struct {
	store  *db.Store
	engine *pricing.Engine
}

// priceRequest is one product of a pricing request.
type priceRequest struct {
	// field names the entry in messages, e.g. pricing_requests[2].
	field string
	ref   sellerapi.SellerProductReference
	price *sellerapi.PriceInput
	base  *sellerapi.PriceInput
}

// priced is a requested product as the engine prices it.
type priced struct {
	sellable bool
	product  pricing.Product
}

// resolve finds the requested products in the caller's catalog and applies
// the request's prices, which override the catalog's.
func (h rentalPricing) resolve(ctx context.Context, reqs []priceRequest) ([]priced, string, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, "", err
	}
	if len(reqs) > maxPricingItems {
		return nil, "", TooManyProducts("a pricing request may carry at most %d products (sublines included), got %d", maxPricingItems, len(reqs))
	}
	seller, err := h.store.GetSeller(ctx, claims.SellerID)
	if err != nil {
		return nil, "", err
	}
	refs := make([]catalog.Reference, len(reqs))
	for i, r := range reqs {
		refs[i] = apiview.CatalogReference(r.ref)
	}
	found, err := catalog.FindByReferences(ctx, h.store.Queries, claims.SellerID, refs)
	if err != nil {
		return nil, "", err
	}
	out := make([]priced, len(reqs))
	for i, r := range reqs {
		price, err := overridePrice(r.field+".price", r.price, seller.Currency)
		if err != nil {
			return nil, "", err
		}
		base, err := overridePrice(r.field+".base_rental_price", r.base, seller.Currency)
		if err != nil {
			return nil, "", err
		}
		p, known := found[refs[i]]
		if !known {
			continue
		}
		out[i] = priced{sellable: catalog.Sellable(p), product: catalog.PricingProduct(p)}
		if price != nil {
			out[i].product.Price = *price
		}
		if base != nil {
			out[i].product.BaseRentalPrice = base
		}
	}
	return out, seller.Currency, nil
}

// overridePrice checks a price sent with a pricing request.
func overridePrice(field string, in *sellerapi.PriceInput, currency string) (*pricing.Money, error) {
	if in == nil {
		return nil, nil
	}
	m, err := catalog.ValidateMoney(field, catalog.Money{Currency: in.Currency, Net: in.Net, Gross: in.Gross, TaxRate: in.TaxRate}, currency)
	if err != nil {
		return nil, BadRequest("field %s", err.Error())
	}
	return &m, nil
}

func checkQuantity(field string, q int64) error {
	if q < 1 || q > maxQuantity {
		return BadRequest("field %s.quantity must be between 1 and %d, got %d", field, maxQuantity, q)
	}
	return nil
}

func language(header *sellerapi.AcceptLanguage) pricing.Language {
	return pricing.ParseAcceptLanguage(optional.Value(header))
}

// ListRecommendedRentalPrices returns, per product, the rent Tenure
// recommends showing (the default term's) or that it cannot be rented.
func (h rentalPricing) ListRecommendedRentalPrices(ctx context.Context, req sellerapi.ListRecommendedRentalPricesRequestObject) (sellerapi.ListRecommendedRentalPricesResponseObject, error) {
	reqs := make([]priceRequest, len(req.Body.PricingRequests))
	for i, r := range req.Body.PricingRequests {
		reqs[i] = priceRequest{field: fmt.Sprintf("pricing_requests[%d]", i), ref: r.SellerProductReference, price: r.Price, base: r.BaseRentalPrice}
	}
	items, currency, err := h.resolve(ctx, reqs)
	if err != nil {
		return nil, err
	}
	lang := language(req.Params.AcceptLanguage)
	out := make([]sellerapi.RecommendedRentalPrice, len(items))
	for i, it := range items {
		var terms []pricing.Term
		if it.sellable {
			terms = h.engine.Rent(it.product)
		}
		summary := lang.Summary(it.sellable, terms)
		out[i] = sellerapi.RecommendedRentalPrice{SellerProductReference: reqs[i].ref, Currency: &currency, Summary: &summary}
		if rec, ok := h.engine.Recommended(terms); ok {
			term := apiview.RentTerm(rec)
			out[i].HasRentalTerms = true
			out[i].MonthlyRentalAmount = &rec.Monthly.Net
			out[i].MonthlyRentalTerms = &term
		}
	}
	return sellerapi.ListRecommendedRentalPrices200JSONResponse(out), nil
}

// GetCartRentalOverview says whether a cart can be checked out and what
// renting each entry and the whole cart costs per month.
func (h rentalPricing) GetCartRentalOverview(ctx context.Context, req sellerapi.GetCartRentalOverviewRequestObject) (sellerapi.GetCartRentalOverviewResponseObject, error) {
	reqs := make([]priceRequest, len(req.Body.Products))
	for i, r := range req.Body.Products {
		reqs[i] = priceRequest{field: fmt.Sprintf("products[%d]", i), ref: r.SellerProductReference, price: r.Price, base: r.BaseRentalPrice}
		if err := checkQuantity(reqs[i].field, r.Quantity); err != nil {
			return nil, err
		}
	}
	items, currency, err := h.resolve(ctx, reqs)
	if err != nil {
		return nil, err
	}
	lang := language(req.Params.AcceptLanguage)
	entries := make([]sellerapi.CartItemRentalOverview, len(items))
	canCheckout, allRentable := len(items) > 0, len(items) > 0
	var lines []pricing.LinePrice
	for i, it := range items {
		quantity := req.Body.Products[i].Quantity
		sellable := it.sellable
		entry := sellerapi.CartItemRentalOverview{SellerProductReference: reqs[i].ref, Quantity: quantity, CanCheckout: &sellable, Currency: &currency}
		canCheckout = canCheckout && sellable
		var line pricing.LinePrice
		if sellable {
			if line, err = h.engine.PriceLine(pricing.Line{Main: it.product, Quantity: quantity}); err != nil {
				return nil, err
			}
		}
		summary := lang.Summary(sellable, line.Rent)
		entry.Summary = &summary
		if low, ok := pricing.Lowest(line.TotalRent); ok {
			entry.HasRentalTerms = true
			entry.AvailableRentalTerms = apiview.RentTerms(line.Rent)
			entry.TotalRentalAmount = &low.Monthly.Net
			lines = append(lines, line)
		} else {
			allRentable = false
		}
		entries[i] = entry
	}
	out := sellerapi.RentalOverview{CanCheckout: &canCheckout, Currency: &currency, ProductPrices: &entries}
	summary := lang.CartNotRentable()
	if allRentable {
		totals, err := h.engine.Total(lines)
		if err != nil {
			return nil, err
		}
		if low, ok := pricing.Lowest(totals.Rent); ok {
			out.TotalRentalAmount = &low.Monthly.Net
			summary = lang.CartRentFrom(low.Monthly)
		}
	}
	out.TotalRentalSummary = &summary
	return sellerapi.GetCartRentalOverview200JSONResponse(out), nil
}

// CalculateProductPricing prices one product for paying now and for each
// term (deprecated operation).
func (h rentalPricing) CalculateProductPricing(ctx context.Context, req sellerapi.CalculateProductPricingRequestObject) (sellerapi.CalculateProductPricingResponseObject, error) {
	r := req.Body.PricingRequest
	items, _, err := h.resolve(ctx, []priceRequest{{field: "pricing_request", ref: r.SellerProductReference, price: r.Price, base: r.BaseRentalPrice}})
	if err != nil {
		return nil, err
	}
	it := items[0]
	lang := language(req.Params.AcceptLanguage)
	out := sellerapi.PricingSummary{IsSupported: it.sellable, AvailableContractTypes: []sellerapi.ContractType{}, Summary: lang.Summary(false, nil)}
	if it.sellable {
		terms := h.engine.Rent(it.product)
		out.AvailableContractTypes = apiview.ContractTypes(terms)
		out.PayNow = apiview.PayNowTerm(it.product.Price)
		out.Rent = apiview.RentTerms(terms)
		out.Summary = lang.Summary(true, terms)
	}
	return sellerapi.CalculateProductPricing200JSONResponse(out), nil
}

// contractTypes are the ways a financeable product can be paid for.
