package console

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tenurehq/tenure/domain/refusal"
)

// The offer builder shows what POST /v1/offers would refuse beside the
// field at fault: the API's messages name a field of its payload
// ("field customer.company.name must be at least 3 characters"), which is
// one of the form's. A message the console knows the shape of is said in
// the page's language; any other in the API's words.

// fieldProblems are a form's problems by form field; "" is the form's
// own, beside no field.
type fieldProblems map[string]string

// apiField finds the payload field a message of the API names and what
// it says of it.
var apiField = regexp.MustCompile(`^(?:field )?([a-z][a-z0-9_]*(?:\[\d+\])?(?:\.[a-z][a-z0-9_]*(?:\[\d+\])?)*)(?::| ) ?(.*)$`)

// linePath finds a line's index and field in a payload path.
var linePath = regexp.MustCompile(`^lines\[(\d+)\](?:\.([a-z_]+))?`)

// knownShapes are the shapes of the API's messages said in the page's
// language, by catalog key; %s takes the number a shape carries.
var knownShapes = []struct {
	pattern *regexp.Regexp
	key     string
}{
	{regexp.MustCompile(`^(?:is required|must not be empty)$`), "portal_offer.error.required"},
	{regexp.MustCompile(`^must be at least (\d+) characters$`), "portal_offer.error.min_length"},
	{regexp.MustCompile(`^must be at most (\d+) characters`), "portal_offer.error.max_length"},
	{regexp.MustCompile(`^must be an e-mail address$`), "portal_offer.error.email"},
	{regexp.MustCompile(`^must be at least (\d+)$`), "portal_offer.error.min"},
	{regexp.MustCompile(`^must be at most (\d+)$`), "portal_offer.error.max"},
	{regexp.MustCompile(`^must be one of `), "portal_offer.error.choice"},
}

// formFieldOf is the form field a payload path fills; "" when none does.
func formFieldOf(path string) string {
	if m := linePath.FindStringSubmatch(path); m != nil {
		i, _ := strconv.Atoi(m[1])
		switch m[2] {
		case "quantity", "price", "title":
			return lineField(m[2], i)
		}
		return "line_" + m[1]
	}
	if path == "lines" {
		return "lines"
	}
	for p := path; p != ""; {
		for _, fd := range customerFields {
			if fd.path == p {
				return fd.name
			}
		}
		for _, fd := range offerFields {
			if fd.path == p {
				return fd.name
			}
		}
		if p == "customer.company.billing_address" {
			return "billing_line1"
		}
		i := strings.LastIndex(p, ".")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return ""
}

// add files one of the API's messages beside its field.
func (fp fieldProblems) add(v view, message string) {
	field, text := "", message
	if m := apiField.FindStringSubmatch(message); m != nil {
		if f := formFieldOf(m[1]); f != "" {
			field, text = f, m[2]
			for _, shape := range knownShapes {
				if s := shape.pattern.FindStringSubmatch(text); s != nil {
					if len(s) > 1 {
						text = v.Tf(shape.key, s[1])
					} else {
						text = v.T(shape.key)
					}
					break
				}
			}
		} else {
			text = message
		}
	}
	fp.put(field, text)
}

// put files a problem beside a field, after any it has.
func (fp fieldProblems) put(field, text string) {
	if have, ok := fp[field]; ok {
		if strings.Contains(have, text) {
			return
		}
		text = have + " " + text
	}
	fp[field] = text
}

// refused files a refusal of the offer's rules: beside the lines it
// names, or the field it is about, in the page's language.
func (fp fieldProblems) refused(v view, r *refusal.Error, f offerForm) {
	text := v.T("portal_offer.refusal." + string(r.Kind))
	if text == "portal_offer.refusal."+string(r.Kind) {
		text = r.Message
	}
	switch r.Kind {
	case refusal.ExpiryInThePast:
		fp.put("valid_days", text)
		return
	case refusal.DuplicateSellerOfferReference:
		fp.put("reference", text)
		return
	}
	placed := false
	for _, ref := range r.References {
		for i, l := range f.Lines {
			if l.Source == ref.Source && l.Reference == ref.Reference {
				fp.put("line_"+strconv.Itoa(i), text)
				placed = true
			}
		}
	}
	if !placed {
		fp.put("lines", text)
	}
}

// fields are the names of the fields with a problem, in order, for the
// audit log's entry of a refused offer.
func (p fieldProblems) fields() []string {
	return slices.Sorted(maps.Keys(p))
}
