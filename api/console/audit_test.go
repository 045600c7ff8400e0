package console

import (
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
)

// An audit entry's target links to the page of its record the viewer's
// role opens: a seller user's to the portal's pages, an operator's never
// to the portal's; a target that names no record, or a viewer who may
// open none of its pages, has no link.
func TestAuditTargetsLinkToThePagesTheViewerMayOpen(t *testing.T) {
	seller := uuid.New()
	agent := &console.User{ID: uuid.New(), Kind: console.SellerUser, Role: console.Agent, SellerID: &seller}
	admin := &console.User{ID: uuid.New(), Kind: console.Operator, Role: console.Admin}
	finance := &console.User{ID: uuid.New(), Kind: console.Operator, Role: console.Finance}
	id := "0190a5a4-6d6e-7c3e-8f3b-2d4c9e1a7b10"
	for target, want := range map[string]string{
		"offer " + id: Base + "/portal/offers/" + id, "order " + id: Base + "/portal/orders/" + id,
		"contract " + id: Base + "/portal/contracts/" + id, "user agent@example.com": "", "order not-an-id": "",
		"seller_offer_reference portal-1": "",
	} {
		if got := targetPath(routes(), agent, target); got != want {
			t.Errorf("an agent's link of %q = %q, want %q", target, got, want)
		}
	}
	if got, want := targetPath(routes(), admin, "offer "+id), Base+"/offers/"+id; got != want {
		t.Errorf("an operator's link of an offer = %q, want %q", got, want)
	}
	for _, kind := range []string{"order", "contract"} {
		got := targetPath(routes(), finance, kind+" "+id)
		if got != "" && got != Base+"/"+kind+"s/"+id {
			t.Errorf("an operator's link of a %s = %q, want the operators' page or none", kind, got)
		}
	}
	if got := targetPath(routes(), nil, "offer "+id); got != "" {
		t.Errorf("a page without a viewer links %q", got)
	}
}
