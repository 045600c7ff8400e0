package pricing

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"strings"
)

// ServiceReplace is device replacement: a broken or stolen device is
// replaced for a deductible per claim.
const ServiceReplace = "service_replace"

// ServiceTypes maps each kind of first-party service Tenure offers to the
// name the published Seller API gives it (the type enum of an order line's
// selected_first_party_services), which Seller API responses must use.
var ServiceTypes = map[string]string{ServiceReplace: "topi_replace"}

// ServiceTerms are the terms a first-party service is offered on with the
// units of lines of one pricing category.
type ServiceTerms struct {
	// MonthlyNet is the price per unit and month, net minor units; 0 offers
	// no such service.
	MonthlyNet int64
	// DeductibleNet is what the customer pays per claim, net minor units.
	DeductibleNet int64
	// AccessoryType names what the service covers, e.g. device.
	AccessoryType string
	// Images show the service, at three pixel densities; all or none.
	Images ServiceImages
}

// ServiceImages are one picture at 1x, 2x and 3x pixel density.
type ServiceImages struct {
	URL1x, URL2x, URL3x string
}

// maxServiceAmount bounds a service's monthly price and deductible: one
// million units of the currency.
const maxServiceAmount = 100_000_000

var accessoryType = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)

// serviceProblems checks the services of every category: a known type, a
// category that has rates, bounded amounts, a plain accessory type and
// absolute image links.
func serviceProblems(services map[string]map[string]ServiceTerms, rates map[string]map[int]int64) []Problem {
	var ps []Problem
	for _, category := range sortedKeys(services) {
		if _, ok := rates[category]; !ok {
			ps = append(ps, Problem{"services." + category, fmt.Sprintf("is not a pricing category with rates (%s): services are offered per pricing category",
				strings.Join(sortedKeys(rates), ", "))})
			continue
		}
		byType := services[category]
		for _, typ := range sortedKeys(byType) {
			key := "services." + category + "." + typ
			if _, ok := ServiceTypes[typ]; !ok {
				ps = append(ps, Problem{key, fmt.Sprintf("is not a first-party service type; use one of %s", strings.Join(sortedKeys(ServiceTypes), ", "))})
				continue
			}
			ps = append(ps, termsProblems(key, byType[typ])...)
		}
	}
	return ps
}

func termsProblems(key string, s ServiceTerms) []Problem {
	var ps []Problem
	bad := func(field, format string, args ...any) {
		ps = append(ps, Problem{key + "." + field, fmt.Sprintf(format, args...)})
	}
	if s.MonthlyNet < 0 || s.MonthlyNet > maxServiceAmount {
		bad("monthly_net", "must be between 0 (not offered) and %d minor units, got %d", maxServiceAmount, s.MonthlyNet)
	}
	if s.DeductibleNet < 0 || s.DeductibleNet > maxServiceAmount {
		bad("deductible_net", "must be between 0 and %d minor units, got %d", maxServiceAmount, s.DeductibleNet)
	}
	if s.AccessoryType != "" && !accessoryType.MatchString(s.AccessoryType) {
		bad("accessory_type", "must be 1 to 64 lower-case letters, digits or underscores, got %q", s.AccessoryType)
	}
	images := map[string]string{"images.url1x": s.Images.URL1x, "images.url2x": s.Images.URL2x, "images.url3x": s.Images.URL3x}
	set := 0
	for _, field := range sortedKeys(images) {
		link := images[field]
		if link == "" {
			continue
		}
		set++
		if u, err := url.Parse(link); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad(field, "must be an absolute http(s) URL, got %q", link)
		}
	}
	if set != 0 && set != len(images) {
		bad("images", "set all three of url1x, url2x and url3x, or none")
	}
	return ps
}

// Services lists the services offered with lines of a pricing category, by
// type; none for a category without configured services.
func (e *Engine) Services(category string) []OfferedService {
	byType := e.services[category]
	var out []OfferedService
	for _, typ := range sortedKeys(byType) {
		if terms := byType[typ]; terms.MonthlyNet > 0 {
			out = append(out, OfferedService{Type: typ, ServiceTerms: terms})
		}
	}
	return out
}

// OfferedService is a service of some type on its terms.
type OfferedService struct {
	Type string
	ServiceTerms
}

// copyServices copies the configured services, so an engine never sees
// later changes of its configuration.
func copyServices(services map[string]map[string]ServiceTerms) map[string]map[string]ServiceTerms {
	out := make(map[string]map[string]ServiceTerms, len(services))
	for category, byType := range services {
		out[category] = maps.Clone(byType)
	}
	return out
}
