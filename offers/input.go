package offers

import (
	"net/url"
)

// checkInput refuses what the contract's guard cannot: an empty
// reference, and redirects that are not http(s). The guard has already
// checked types, required fields, formats and every limit seller.yaml
// states (lengths, item counts, quantities, metadata).
func checkInput(p Request) error {
	if p.Reference == "" {
		return invalid("field seller_offer_reference must not be empty")
	}
	for _, u := range []struct {
		name  string
		value *string
	}{{"exit_redirect", p.ExitRedirect}, {"success_redirect", p.SuccessRedirect}} {
		if u.value == nil {
			continue
		}
		if parsed, err := url.Parse(*u.value); err != nil || !parsed.IsAbs() || (parsed.Scheme != "http" && parsed.Scheme != "https") {
			return invalid("field %s must be an absolute http(s) URL", u.name)
		}
	}
	return CheckMetadata("metadata", p.Metadata)
}

// CheckMetadata refuses metadata with an empty key (offers' and orders'),
// which seller.yaml cannot state; its limits of keys and lengths are the
// guard's.
func CheckMetadata(field string, m map[string]string) error {
	if _, ok := m[""]; ok {
		return invalid("field %s: keys must not be empty", field)
	}
	return nil
}
