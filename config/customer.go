package config

import (
	"net/url"
	"regexp"
	"slices"
	"time"
)

// SellersConfig is what a deployment decides for every seller.
type SellersConfig struct {
	// ContractualEntities are the legal entities that finance offers, by
	// id, with the billing countries each serves.
	ContractualEntities map[string][]string `mapstructure:"contractual_entities"`
	// DefaultContractualEntity finances the offers of sellers the operator
	// assigned no entity.
	DefaultContractualEntity string `mapstructure:"default_contractual_entity"`
}

// ContractualEntity resolves a seller's entity ("" is the default) to its
// id and billing countries; ok is false for an id the deployment does not
// configure (any more).
func (s SellersConfig) ContractualEntity(id string) (string, []string, bool) {
	if id == "" {
		id = s.DefaultContractualEntity
	}
	countries, ok := s.ContractualEntities[id]
	return id, countries, ok
}

// TermsConfig are the deployment's terms and conditions documents: the URL
// of each document type, by language (terms.en.general_terms).
type TermsConfig map[string]map[string]string

// Languages are the languages Tenure has texts and documents in.
var Languages = []string{"en", "de", "nl"}

var customerDefaults = map[string]any{
	"auth.customer_token_ttl":             "1h",
	"sellers.contractual_entities.tenure": []string{"AT", "BE", "CH", "DE", "ES", "FR", "IT", "LU", "NL"},
	"sellers.default_contractual_entity":  "tenure",
	"terms.en.general_terms":              "",
	"terms.en.privacy_policy":             "",
	"terms.de.general_terms":              "",
	"terms.de.privacy_policy":             "",
	"terms.nl.general_terms":              "",
	"terms.nl.privacy_policy":             "",
}

var (
	entityID     = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)
	documentType = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
)

// validateCustomer checks the settings of the Customer-Facing API.
func (c *Config) validateCustomer(bad func(key, format string, args ...any)) {
	if ttl := c.Auth.CustomerTokenTTL; ttl < time.Minute || ttl > 24*time.Hour {
		bad("auth.customer_token_ttl", "must be between 1m and 24h, got %s", ttl)
	}
	s := c.Sellers
	for id, countries := range s.ContractualEntities {
		key := "sellers.contractual_entities." + id
		if !entityID.MatchString(id) {
			bad(key, "the last part must be an id of lower-case letters, digits, _ or -")
		}
		if len(countries) == 0 {
			bad(key, "must list at least one billing country such as DE")
		}
		for _, country := range countries {
			if !countryCode.MatchString(country) {
				bad(key, "%q is not an upper-case ISO 3166-1 alpha-2 code such as DE", country)
			}
		}
	}
	if _, ok := s.ContractualEntities[s.DefaultContractualEntity]; !ok {
		bad("sellers.default_contractual_entity", "must name one of sellers.contractual_entities, got %q", s.DefaultContractualEntity)
	}
	for language, documents := range c.Terms {
		if !slices.Contains(Languages, language) {
			bad("terms."+language, "the language must be en, de or nl")
		}
		for kind, link := range documents {
			key := "terms." + language + "." + kind
			if !documentType.MatchString(kind) {
				bad(key, "the document type must be lower-case letters, digits and _")
			}
			if link != "" && !absoluteHTTP(link) {
				bad(key, "must be an absolute http(s) URL, got %q", link)
			}
		}
	}
	c.validateIDVProvider(bad)
}

func absoluteHTTP(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
