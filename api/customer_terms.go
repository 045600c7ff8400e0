package api

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/customerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/domain/terms"
	"github.com/tenurehq/tenure/foundation/optional"
)

// customerTerms serves an offer's terms and conditions documents.
type customerTerms struct {
	store      *db.Store
	deployment config.TermsConfig
	shared     sharedTokens
}

// GetTermsAndConditionsLinks implements getTermsAndConditionsLinks.
func (t customerTerms) GetTermsAndConditionsLinks(ctx context.Context, r customerapi.GetTermsAndConditionsLinksRequestObject) (customerapi.GetTermsAndConditionsLinksResponseObject, error) {
	row, err := bearerOffer(ctx, t.store.Queries, r.Id)
	if err != nil {
		return nil, err
	}
	result, err := t.result(ctx, row, "", string(optional.Value(r.Params.AcceptLanguage)))
	return customerapi.GetTermsAndConditionsLinks200JSONResponse(result), err
}

// FindTermsAndConditionsLinks implements findTermsAndConditionsLinks: no
// credentials, but the offer must exist, since its seller's documents are
// part of the answer.
func (t customerTerms) FindTermsAndConditionsLinks(ctx context.Context, r customerapi.FindTermsAndConditionsLinksRequestObject) (customerapi.FindTermsAndConditionsLinksResponseObject, error) {
	row, err := findOffer(ctx, t.store.Queries, r.Id, NotFound("no offer %s", r.Id))
	if err != nil {
		return nil, err
	}
	language := ""
	if r.Body != nil && r.Body.Params != nil && r.Body.Params.Language != nil {
		language = string(*r.Body.Params.Language)
	}
	result, err := t.result(ctx, row, language, string(optional.Value(r.Params.AcceptLanguage)))
	return customerapi.FindTermsAndConditionsLinks200JSONResponse(result), err
}

// GetAnonymizedTermsAndConditionsLinks implements getAnonymizedTermsAndConditionsLinks.
func (t customerTerms) GetAnonymizedTermsAndConditionsLinks(ctx context.Context, r customerapi.GetAnonymizedTermsAndConditionsLinksRequestObject) (customerapi.GetAnonymizedTermsAndConditionsLinksResponseObject, error) {
	row, err := t.shared.open(ctx, r.Id, r.Params.Token)
	if err != nil {
		return nil, err
	}
	result, err := t.result(ctx, row, "", string(optional.Value(r.Params.AcceptLanguage)))
	return customerapi.GetAnonymizedTermsAndConditionsLinks200JSONResponse(result), err
}

// result lists the documents of an offer's seller, applicable in language
// when one is asked for, else in the customer's language.
func (t customerTerms) result(ctx context.Context, row dbgen.Offer, language, acceptLanguage string) (customerapi.TermsAndConditions, error) {
	facts, err := factsOf(row)
	if err != nil {
		return customerapi.TermsAndConditions{}, err
	}
	docs, err := t.documents(ctx, row.SellerID)
	if err != nil {
		return customerapi.TermsAndConditions{}, err
	}
	if language == "" {
		language = terms.CustomerLanguage(facts.Language, acceptLanguage)
	}
	return customerapi.TermsAndConditions{
		ApplicableTermsAndConditions: termsDocuments(docs[language]),
		De:                           termsDocuments(docs["de"]),
		En:                           termsDocuments(docs["en"]),
		Nl:                           termsDocuments(docs["nl"]),
	}, nil
}

func (t customerTerms) documents(ctx context.Context, sellerID uuid.UUID) (terms.Documents, error) {
	profile, err := sellers.Load(ctx, t.store.Queries, sellerID)
	if db.IsNotFound(err) {
		return nil, NotFound("the offer's seller no longer exists")
	}
	if err != nil {
		return nil, err
	}
	return terms.Assemble(t.deployment, profile.TermsDocuments), nil
}

func termsDocuments(docs []terms.Document) []customerapi.TermsDocument {
	return viewsOf(docs, func(d terms.Document) customerapi.TermsDocument {
		return customerapi.TermsDocument{Id: d.ID, Type: d.Type, Url: d.URL}
	})
}
