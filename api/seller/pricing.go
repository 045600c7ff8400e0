package seller

import (
	"context"
	"fmt"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
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
	catalog *services.Catalog
	engine  *pricing.Engine
}

// priceRequest is one product of a pricing request.
type priceRequest struct {
	// field names the entry in messages, e.g. pricing_requests[2].
	field string
	ref   sellerapi.SellerProductReference
	price *sellerapi.PriceInput
	base  *sellerapi.PriceInput
}

// resolve finds the requested products in the caller's catalog, the
// request's prices overriding the catalog's.
func (h rentalPricing) resolve(ctx context.Context, reqs []priceRequest) ([]services.PricedProduct, string, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, "", err
	}
	if len(reqs) > maxPricingItems {
		return nil, "", apierror.TooManyProducts("a pricing request may carry at most %d products (sublines included), got %d", maxPricingItems, len(reqs))
	}
	asked := make([]services.PriceRequest, len(reqs))
	for i, r := range reqs {
		asked[i] = services.PriceRequest{
			Field: r.field, Reference: catalogReference(r.ref), Price: priceInput(r.price), BaseRentalPrice: priceInput(r.base),
		}
	}
	items, currency, err := h.catalog.Price(ctx, claims.SellerID, asked)
	return items, currency, apierror.BadInput(err)
}

// priceInput is a price sent with a pricing request, for the catalog to
// check.
func priceInput(in *sellerapi.PriceInput) *catalog.Money {
	if in == nil {
		return nil
	}
	return &catalog.Money{Currency: in.Currency, Net: in.Net, Gross: in.Gross, TaxRate: in.TaxRate}
}

func checkQuantity(field string, q int64) error {
	if q < 1 || q > maxQuantity {
		return apierror.BadRequest("field %s.quantity must be between 1 and %d, got %d", field, maxQuantity, q)
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
		if it.Sellable {
			terms = h.engine.Rent(it.Product)
		}
		summary := lang.Summary(it.Sellable, terms)
		out[i] = sellerapi.RecommendedRentalPrice{SellerProductReference: reqs[i].ref, Currency: &currency, Summary: &summary}
		if rec, ok := h.engine.Recommended(terms); ok {
			term := rentTerm(rec)
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
		sellable := it.Sellable
		entry := sellerapi.CartItemRentalOverview{SellerProductReference: reqs[i].ref, Quantity: quantity, CanCheckout: &sellable, Currency: &currency}
		canCheckout = canCheckout && sellable
		var line pricing.LinePrice
		if sellable {
			if line, err = h.engine.PriceLine(pricing.Line{Main: it.Product, Quantity: quantity}); err != nil {
				return nil, err
			}
		}
		summary := lang.Summary(sellable, line.Rent)
		entry.Summary = &summary
		if low, ok := pricing.Lowest(line.TotalRent); ok {
			entry.HasRentalTerms = true
			entry.AvailableRentalTerms = rentTerms(line.Rent)
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
	out := sellerapi.PricingSummary{IsSupported: it.Sellable, AvailableContractTypes: []sellerapi.ContractType{}, Summary: lang.Summary(false, nil)}
	if it.Sellable {
		terms := h.engine.Rent(it.Product)
		out.AvailableContractTypes = contractTypes(terms)
		out.PayNow = payNowTerm(it.Product.Price)
		out.Rent = rentTerms(terms)
		out.Summary = lang.Summary(true, terms)
	}
	return sellerapi.CalculateProductPricing200JSONResponse(out), nil
}
