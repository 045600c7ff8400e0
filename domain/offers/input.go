package offers

import (
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/weburl"
)

// checkInput refuses what the contract's guard cannot: an empty
// reference, and redirects a customer may not be sent to (urls; empty
// stands for none, as integrations send it). The guard has already
// checked types, required fields, formats and every limit seller.yaml
// states (lengths, item counts, quantities, metadata).
func checkInput(p Request, urls weburl.Rule) error {
	if p.Reference == "" {
		return invalid("field seller_offer_reference must not be empty")
	}
	for _, u := range []struct {
		name  string
		value *string
	}{{"exit_redirect", p.ExitRedirect}, {"success_redirect", p.SuccessRedirect}} {
		if u.value == nil || *u.value == "" {
			continue
		}
		if err := urls.Check(*u.value); err != nil {
			return reject(refusal.InvalidRedirect, nil, "field %s %s", u.name, err)
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
