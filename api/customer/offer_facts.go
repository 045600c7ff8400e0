package customer

import "github.com/tenurehq/tenure/domain/offers"

// hasLine reports whether the offer has a line or subline of that id.
func hasLine(d offers.Document, id string) bool {
	for _, line := range d.Lines {
		if line.ID == id {
			return true
		}
		for _, sub := range line.Sublines {
			if sub.ID == id {
				return true
			}
		}
	}
	return false
}

// customerLanguage is the language the customer gave with its data, ""
// before it gave them.
func customerLanguage(d offers.Document) string {
	if e := d.EndCustomer(); e != nil {
		return e.Language
	}
	return ""
}
