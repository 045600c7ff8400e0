package seller

import (
	"context"
	"fmt"

	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// CalculateBasketPricing prices every basket entry with its sublines, for
// paying now and for each term (deprecated operation). An entry can be
// financed when its product and every subline can; the basket totals are
// given when every entry can.
func (h rentalPricing) CalculateBasketPricing(ctx context.Context, req sellerapi.CalculateBasketPricingRequestObject) (sellerapi.CalculateBasketPricingResponseObject, error) {
	entries := req.Body.PricingRequests
	// Each entry's product and sublines are resolved in one lookup; first
	// is where an entry's product sits among them.
	var reqs []priceRequest
	first := make([]int, len(entries))
	for i, e := range entries {
		field := fmt.Sprintf("pricing_requests[%d]", i)
		if err := checkQuantity(field, e.Quantity); err != nil {
			return nil, err
		}
		first[i] = len(reqs)
		reqs = append(reqs, priceRequest{field: field, ref: e.SellerProductReference, price: e.Price, base: e.BaseRentalPrice})
		for j, s := range optional.Value(e.Sublines) {
			reqs = append(reqs, priceRequest{field: fmt.Sprintf("%s.sublines[%d]", field, j), ref: s.SellerProductReference, price: s.Price, base: s.BaseRentalPrice})
		}
	}
	items, _, err := h.resolve(ctx, reqs)
	if err != nil {
		return nil, err
	}
	lang := language(req.Params.AcceptLanguage)
	summaries := make([]sellerapi.BasketItemPricing, len(entries))
	var lines []pricing.LinePrice
	for i, e := range entries {
		main, subs := items[first[i]], items[first[i]+1:first[i]+1+len(optional.Value(e.Sublines))]
		summary, line, err := h.basketEntry(lang, e, main, subs)
		if err != nil {
			return nil, err
		}
		summaries[i] = summary
		if line != nil {
			lines = append(lines, *line)
		}
	}
	out := sellerapi.BasketPricingResult{Summaries: &summaries}
	if len(lines) > 0 && len(lines) == len(entries) {
		totals, err := h.engine.Total(lines)
		if err != nil {
			return nil, err
		}
		payNow := moneyWithTax(totals.PayNow)
		out.BasketTotalPayNow = &payNow
		if rec, ok := h.engine.Recommended(totals.Rent); ok {
			rent := moneyWithTax(rec.Monthly)
			out.BasketTotalRent = &rent
		}
	}
	return sellerapi.CalculateBasketPricing200JSONResponse(out), nil
}

// basketEntry prices one entry; the line is nil when it cannot be financed.
func (h rentalPricing) basketEntry(lang pricing.Language, e sellerapi.BasketPricingItem, main services.PricedProduct, subs []services.PricedProduct) (sellerapi.BasketItemPricing, *pricing.LinePrice, error) {
	supported := main.Sellable
	sublines := make([]sellerapi.BasketSublinePricing, len(subs))
	products := make([]pricing.Product, len(subs))
	for j, s := range subs {
		supported = supported && s.Sellable
		products[j] = s.Product
		view, err := h.basketSubline(lang, s, e.Quantity)
		if err != nil {
			return sellerapi.BasketItemPricing{}, nil, err
		}
		sublines[j] = view
	}
	out := sellerapi.BasketItemPricing{
		AvailableContractTypes: []sellerapi.ContractType{},
		DefaultTenure:          int64(h.engine.DefaultDuration()),
		Identifier:             e.Identifier,
		IsSupported:            supported,
		Sublines:               &sublines,
		Summary:                lang.Summary(false, nil),
	}
	if !supported {
		return out, nil, nil
	}
	line, err := h.engine.PriceLine(pricing.Line{Main: main.Product, Sublines: products, Quantity: e.Quantity})
	if err != nil {
		return sellerapi.BasketItemPricing{}, nil, err
	}
	out.AvailableContractTypes = contractTypes(line.Rent)
	out.PayNow = payNowTerm(line.PayNow)
	out.PayNowExcludingSublines = payNowTerm(line.PayNowExcludingSublines)
	out.TotalPayNow = payNowTerm(line.TotalPayNow)
	out.Rent = rentTerms(line.Rent)
	out.RentExcludingSublines = rentTerms(line.RentExcludingSublines)
	out.TotalRent = rentTerms(line.TotalRent)
	out.Summary = lang.Summary(true, line.Rent)
	return out, &line, nil
}

// basketSubline prices a subline on its own, per unit of its entry and for
// the entry's quantity.
func (h rentalPricing) basketSubline(lang pricing.Language, s services.PricedProduct, quantity int64) (sellerapi.BasketSublinePricing, error) {
	out := sellerapi.BasketSublinePricing{
		AvailableContractTypes: []sellerapi.ContractType{},
		DefaultTenure:          int64(h.engine.DefaultDuration()),
		IsSupported:            s.Sellable,
		Summary:                lang.Summary(false, nil),
	}
	if !s.Sellable {
		return out, nil
	}
	line, err := h.engine.PriceLine(pricing.Line{Main: s.Product, Quantity: quantity})
	if err != nil {
		return out, err
	}
	out.AvailableContractTypes = contractTypes(line.Rent)
	out.PayNow = payNowTerm(line.PayNow)
	out.TotalPayNow = payNowTerm(line.TotalPayNow)
	out.Rent = rentTerms(line.Rent)
	out.TotalRent = rentTerms(line.TotalRent)
	out.Summary = lang.Summary(true, line.Rent)
	return out, nil
}
