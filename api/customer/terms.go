package customer

import (
	"context"
	"errors"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/terms"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// customerTerms serves an offer's terms and conditions documents.
type customerTerms struct {
	offers *services.CustomerOffers
	shared sharedTokens
}

// GetTermsAndConditionsLinks implements getTermsAndConditionsLinks.
func (t customerTerms) GetTermsAndConditionsLinks(ctx context.Context, r customerapi.GetTermsAndConditionsLinksRequestObject) (customerapi.GetTermsAndConditionsLinksResponseObject, error) {
	o, err := bearerOffer(ctx, t.offers, r.Id)
	if err != nil {
		return nil, err
	}
	result, err := t.result(ctx, o, "", string(optional.Value(r.Params.AcceptLanguage)))
	return customerapi.GetTermsAndConditionsLinks200JSONResponse(result), err
}

// FindTermsAndConditionsLinks implements findTermsAndConditionsLinks: no
// credentials, but the offer must exist, since its seller's documents are
// part of the answer.
func (t customerTerms) FindTermsAndConditionsLinks(ctx context.Context, r customerapi.FindTermsAndConditionsLinksRequestObject) (customerapi.FindTermsAndConditionsLinksResponseObject, error) {
	o, err := findOffer(ctx, t.offers, r.Id, apierror.NotFound("no offer %s", r.Id))
	if err != nil {
		return nil, err
	}
	language := ""
	if r.Body != nil && r.Body.Params != nil && r.Body.Params.Language != nil {
		language = string(*r.Body.Params.Language)
	}
	result, err := t.result(ctx, o, language, string(optional.Value(r.Params.AcceptLanguage)))
	return customerapi.FindTermsAndConditionsLinks200JSONResponse(result), err
}

// GetAnonymizedTermsAndConditionsLinks implements getAnonymizedTermsAndConditionsLinks.
func (t customerTerms) GetAnonymizedTermsAndConditionsLinks(ctx context.Context, r customerapi.GetAnonymizedTermsAndConditionsLinksRequestObject) (customerapi.GetAnonymizedTermsAndConditionsLinksResponseObject, error) {
	o, err := t.shared.open(ctx, r.Id, r.Params.Token)
	if err != nil {
		return nil, err
	}
	result, err := t.result(ctx, o, "", string(optional.Value(r.Params.AcceptLanguage)))
	return customerapi.GetAnonymizedTermsAndConditionsLinks200JSONResponse(result), err
}

// result lists the documents of an offer's seller, applicable in language
// when one is asked for, else in the customer's language.
func (t customerTerms) result(ctx context.Context, o offers.Stored, language, acceptLanguage string) (customerapi.TermsAndConditions, error) {
	docs, err := t.offers.TermsDocuments(ctx, o)
	if errors.Is(err, services.ErrSellerNotFound) {
		return customerapi.TermsAndConditions{}, apierror.NotFound("the offer's seller no longer exists")
	}
	if err != nil {
		return customerapi.TermsAndConditions{}, err
	}
	if language == "" {
		language = terms.CustomerLanguage(customerLanguage(o.Document), acceptLanguage)
	}
	return customerapi.TermsAndConditions{
		ApplicableTermsAndConditions: termsDocuments(docs[language]),
		De:                           termsDocuments(docs["de"]),
		En:                           termsDocuments(docs["en"]),
		Nl:                           termsDocuments(docs["nl"]),
	}, nil
}

func termsDocuments(docs []terms.Document) []customerapi.TermsDocument {
	return views.Of(docs, func(d terms.Document) customerapi.TermsDocument {
		return customerapi.TermsDocument{Id: d.ID, Type: d.Type, Url: d.URL}
	})
}
