package sellers

import (
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tenurehq/tenure/foundation/weburl"
)

// Problem is a profile value Tenure refuses, named by its field in the
// API's words (address.country_code, terms_and_conditions[0].url).
type Problem struct {
	Field   string
	Message string
}

func (p Problem) Error() string { return "field " + p.Field + ": " + p.Message }

// Languages of terms documents.
var Languages = []string{"en", "de", "nl"}

// Limits of profile values.
const (
	maxText           = 255
	maxIDText         = 128
	maxTermsDocuments = 50
)

var (
	countryCode  = regexp.MustCompile(`^[A-Z]{2}$`)
	documentType = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	referenceSrc = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
)

// Refused names every value of a profile Tenure refuses, or is nil;
// entities are the deployment's contractual entities, urls its rule for
// the URLs a customer follows (the logo, the documents).
func (p Profile) Refused(entities map[string][]string, urls weburl.Rule) error {
	problems := p.Check(entities, urls)
	if len(problems) == 0 {
		return nil
	}
	msgs := make([]string, len(problems))
	for i, pr := range problems {
		msgs[i] = pr.Error()
	}
	return errors.New(strings.Join(msgs, "; "))
}

// Check lists every value of a profile Tenure refuses; entities are the
// deployment's contractual entities, urls its rule for the URLs a customer
// follows.
func (p Profile) Check(entities map[string][]string, urls weburl.Rule) []Problem {
	var problems []Problem
	bad := func(field, format string, args ...any) {
		problems = append(problems, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	text := func(field, value string, max int, required bool) {
		switch n := utf8.RuneCountInString(value); {
		case required && value == "":
			bad(field, "must not be empty")
		case n > max:
			bad(field, "must be at most %d characters, got %d", max, n)
		}
	}
	text("name", p.Name, maxText, true)
	text("pretty_name", p.PrettyName, maxText, false)
	if p.LogoURL != "" {
		if err := urls.Check(p.LogoURL); err != nil {
			bad("logo_url", "%s", err)
		}
	}
	if p.Email != "" {
		if a, err := mail.ParseAddress(p.Email); err != nil || a.Address != p.Email || len(p.Email) > 254 {
			bad("email", "must be an e-mail address such as billing@shop.example")
		}
	}
	a := p.Address
	text("address.line1", a.Line1, maxText, false)
	text("address.line2", a.Line2, 40, false)
	text("address.postal_code", a.PostalCode, 32, false)
	text("address.city", a.City, maxText, false)
	text("address.region", a.Region, maxText, false)
	if a.CountryCode != "" && !countryCode.MatchString(a.CountryCode) {
		bad("address.country_code", "must be an upper-case ISO 3166-1 alpha-2 code such as DE")
	}
	if !referenceSrc.MatchString(p.ProductReferenceSource) {
		bad("product_reference_source", "must be 1 to 64 letters, digits, '.', '_' or '-'")
	}
	text("capability_chatbot_id", p.Capabilities.ChatbotID, maxIDText, false)
	text("pdf_reader_assistant_id", p.PDFReaderAssistantID, maxIDText, false)
	if _, known := entities[p.ContractualEntity]; p.ContractualEntity != "" && !known {
		bad("contractual_entity", "%q is not a contractual entity of this deployment", p.ContractualEntity)
	}
	problems = append(problems, CheckTermsDocuments("terms_and_conditions", p.TermsDocuments, urls)...)
	return problems
}

// CheckTermsDocuments lists the refused values of a list of documents.
func CheckTermsDocuments(field string, docs []TermsDocument, urls weburl.Rule) []Problem {
	var problems []Problem
	if len(docs) > maxTermsDocuments {
		return []Problem{{Field: field, Message: fmt.Sprintf("must list at most %d documents, got %d", maxTermsDocuments, len(docs))}}
	}
	seen := map[[2]string]bool{}
	for i, d := range docs {
		at := fmt.Sprintf("%s[%d]", field, i)
		if !documentType.MatchString(d.Type) {
			problems = append(problems, Problem{at + ".type", "must be 1 to 64 lower-case letters, digits or _, starting with a letter"})
		}
		if !slices.Contains(Languages, d.Language) {
			problems = append(problems, Problem{at + ".language", "must be en, de or nl"})
		}
		if err := urls.Check(d.URL); err != nil {
			problems = append(problems, Problem{at + ".url", err.Error()})
		}
		key := [2]string{d.Type, d.Language}
		if seen[key] {
			problems = append(problems, Problem{at, fmt.Sprintf("lists type %s in %s twice", d.Type, d.Language)})
		}
		seen[key] = true
	}
	return problems
}
