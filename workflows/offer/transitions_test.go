package offer

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/offers"
)

// The statuses the table derives as final and active are the ones the
// database's one-active-offer-per-reference index and query name.
func TestDerivedStatusSets(t *testing.T) {
	var final, active []string
	for _, s := range []offers.Status{offers.Created, offers.PendingReview, offers.Accepted, offers.Declined, offers.Voided, offers.Expired} {
		if Final(s) {
			final = append(final, string(s))
		}
		if Active(s) {
			active = append(active, string(s))
		}
	}
	if want := []string{"accepted", "declined", "voided", "expired"}; !slices.Equal(final, want) {
		t.Errorf("final %v, want %v", final, want)
	}
	inList := regexp.MustCompile(`status IN \(([^)]*)\)`)
	for _, file := range []string{"../../db/migrations/00020_offers.sql", "../../db/queries/offers.sql"} {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := inList.FindSubmatch(raw)
		if m == nil {
			t.Fatalf("%s names no active statuses", file)
		}
		var listed []string
		for _, s := range strings.Split(string(m[1]), ",") {
			listed = append(listed, strings.Trim(strings.TrimSpace(s), "'"))
		}
		if !slices.Equal(listed, active) {
			t.Errorf("%s: active statuses %v, the table's %v", file, listed, active)
		}
	}
}

// A customer's credentials are revoked exactly when the offer is final
// (offers.Standing), and open the whole checkout only where the customer
// may still change the offer.
func TestCustomerReachFollowsTheTable(t *testing.T) {
	for _, s := range []offers.Status{offers.Created, offers.PendingReview, offers.Accepted, offers.Declined, offers.Voided, offers.Expired} {
		reach := offers.Standing{Status: s}.Reach()
		if revoked := reach == offers.ReachRevoked; revoked != Final(s) {
			t.Errorf("%s: revoked %v, final %v", s, revoked, Final(s))
		}
		if open := reach == offers.ReachCheckout; open != Transitions.Allows(s, CustomerChange.Update) {
			t.Errorf("%s: the checkout is open %v, the customer may change the offer %v", s, open, Transitions.Allows(s, CustomerChange.Update))
		}
		if (offers.Standing{Status: s, Superseded: true}).Reach() != offers.ReachRevoked {
			t.Errorf("%s: a superseded offer's credentials are not revoked", s)
		}
	}
}
