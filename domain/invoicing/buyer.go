package invoicing

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/invoices"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
)

// languageOfCountry is the language of a billing country where the
// customer chose none: German for the German-speaking countries, Dutch
// for the Dutch-speaking ones, else English.
var languageOfCountry = map[string]pricing.Language{
	"DE": pricing.German, "AT": pricing.German, "CH": pricing.German, "LI": pricing.German,
	"NL": pricing.Dutch, "BE": pricing.Dutch,
}

// buyerOf is the order's customer as its invoices name it (the company
// and billing address the order holds from checkout) and the language of
// its documents: the one the customer chose at checkout, else their
// billing country's.
func buyerOf(ctx context.Context, q *dbgen.Queries, order orders.Stored) (invoices.Party, pricing.Language, error) {
	company := order.Document.Customer.Company
	if company == nil || company.BillingAddress == nil {
		return invoices.Party{}, "", fmt.Errorf("%w: order %s has no billing address", ErrNotInvoiceable, order.Row.ID)
	}
	a := company.BillingAddress
	party := invoices.Party{
		Name: optional.Value(company.Name),
		Address: invoices.Address{
			Street: a.Line1, Street2: optional.Value(a.Line2), PostalCode: a.PostalCode, City: a.City, Country: strings.ToUpper(a.CountryCode),
		},
		VATID: optional.Value(company.VATNumber),
		Email: optional.Value(order.Document.Customer.Email),
	}
	if party.Name == "" {
		party.Name = optional.Value(order.Document.Customer.FullName)
	}
	row, err := q.GetOffer(ctx, dbgen.GetOfferParams{SellerID: order.Row.SellerID, ID: order.Row.OfferID})
	if err != nil {
		return invoices.Party{}, "", err
	}
	offer, err := offers.Decode(row)
	if err != nil {
		return invoices.Party{}, "", err
	}
	if c := offer.Document.Checkout; c != nil && c.EndCustomer != nil {
		chosen := pricing.Language(c.EndCustomer.Language)
		if slices.Contains([]pricing.Language{pricing.English, pricing.German, pricing.Dutch}, chosen) {
			return party, chosen, nil
		}
	}
	if l, ok := languageOfCountry[party.Address.Country]; ok {
		return party, l, nil
	}
	return party, pricing.English, nil
}
