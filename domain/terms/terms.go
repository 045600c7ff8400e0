// Package terms assembles the terms and conditions documents an offer's
// customer agrees to: the deployment's documents per language, with the
// seller's own documents and the operator's per-seller replacements.
package terms

import (
	"slices"
	"strings"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/sellers"
)

// Document is one document as the customer is shown it.
type Document struct {
	ID   string
	Type string
	URL  string
}

// Documents are a seller's documents in every language Tenure has.
type Documents map[string][]Document

// Assemble lists, per language, the deployment's documents (those with a
// URL), with a seller's document replacing the deployment's of the same
// type and language, and the seller's other documents added. Each list is
// in order of type.
func Assemble(deployment config.TermsConfig, seller []sellers.TermsDocument) Documents {
	docs := make(Documents, len(config.Languages))
	for _, language := range config.Languages {
		byType := map[string]Document{}
		for kind, link := range deployment[language] {
			if link != "" {
				byType[kind] = Document{ID: kind + "-" + language, Type: kind, URL: link}
			}
		}
		for _, d := range seller {
			if d.Language == language {
				byType[d.Type] = Document{ID: "seller-" + d.Type + "-" + language, Type: d.Type, URL: d.URL}
			}
		}
		list := make([]Document, 0, len(byType))
		for _, d := range byType {
			list = append(list, d)
		}
		slices.SortFunc(list, func(a, b Document) int { return strings.Compare(a.Type, b.Type) })
		docs[language] = list
	}
	return docs
}

// CustomerLanguage is the language documents apply in: the customer's
// stored language when there is one, else the most preferred of the
// request's Accept-Language, else English.
func CustomerLanguage(stored, acceptLanguage string) string {
	if slices.Contains(config.Languages, stored) {
		return stored
	}
	return string(pricing.ParseAcceptLanguage(acceptLanguage))
}

// Deployment reports whether the deployment has a document of this type in
// any language; the operator alone may replace those for a seller.
func Deployment(deployment config.TermsConfig, kind string) bool {
	for _, documents := range deployment {
		if documents[kind] != "" {
			return true
		}
	}
	return false
}
