package consoletest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
)

// orderOf waits until the accepted offer's order exists and returns it.
func (s *stack) orderOf(t *testing.T, offerID uuid.UUID) uuid.UUID {
	t.Helper()
	var order uuid.UUID
	eventually(t, func() (string, bool) {
		items, _, err := s.svc.Orders.List(t.Context(), s.sellerID, listing.Filter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(items, func(o orders.ListItem) bool { return o.OfferID == offerID })
		if i >= 0 {
			order = items[i].ID
		}
		return fmt.Sprintf("offer %s has no order", offerID), i >= 0
	})
	return order
}

// A seller's admin, at 1280 px in English, works an order in the portal:
// acknowledges it, is refused a rejection once the order was confirmed
// elsewhere, ships its six servers with their serial numbers, and follows
// a contract to its installment schedule and an early termination's
// quote, which they accept. Each action is in the audit log, the refusal
// too; another seller's admin finds neither the order nor the contract.
func TestSellerWorksAnOrderAndItsContract(t *testing.T) {
	s := newStack(t)
	offerID := s.offerInReview(t, "Ordering Customer GmbH")
	if err := s.svc.Offers.Accept(t.Context(), s.sellerID, offerID); err != nil {
		t.Fatal(err)
	}
	orderID := s.orderOf(t, offerID)
	email := "admin@musterhandel.example"
	password, secret := newSellerUser(t, s.svc, s.sellerID, email, console.Admin)
	p := openConsole(t, s.svc, browsertest.Window{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}, "portal", tabTimeout, pageTimeout)

	p.Open(s.url + "/console/portal/orders")
	p.WaitText("h1", "Sign in")
	signInAs(p, email, password, secret)
	p.WaitText("h1", "Orders")
	p.WaitText(fmt.Sprintf("#order-%s", orderID), "Ordering Customer GmbH")
	checkScreen(p, "orders")

	p.Click(fmt.Sprintf("#order-%s h2 a", orderID))
	p.WaitText("#order-status", "new")
	checkScreen(p, "order")
	p.Click("form[action$='/acknowledge'] button")
	p.WaitText("main .notice", "acknowledged")
	p.WaitText("#order-status", "acknowledged")
	// Confirmed through the Seller API meanwhile, the order can no longer
	// be rejected: the page says so and shows it as it is.
	if _, err := s.svc.Orders.Accept(t.Context(), s.sellerID, orderID); err != nil {
		t.Fatal(err)
	}
	p.Click("form[action$='/reject'] button")
	p.WaitText("main .problem", "does not allow this any more")
	p.WaitText("#order-status", "confirmed")
	checkScreen(p, "refused")

	for i := range 6 {
		p.Do(chromedp.SendKeys(chromedp.CSS(fmt.Sprintf("#serial_%d", i)), fmt.Sprintf("SN-%d-%s", i, orderID.String()[:8])))
	}
	checkScreen(p, "shipment")
	p.Click("form[action$='/shipments'] button[type=submit]")
	p.WaitText("main .notice", "shipment is recorded")
	p.WaitText("#order-status", "shipped")
	p.WaitText("main", "SN-5-")
	checkScreen(p, "shipped")

	list, _, err := s.svc.Contracts.List(t.Context(), s.sellerID, contracts.ListFilter{OrderID: &orderID, Limit: 10})
	if err != nil || len(list) == 0 {
		t.Fatalf("the order has no contract (%v)", err)
	}
	contractID := list[0].ID
	p.Open(s.url + "/console/portal/contracts")
	p.WaitText(fmt.Sprintf("#contract-%s", contractID), "Server")
	checkScreen(p, "contracts")
	p.Click(fmt.Sprintf("#contract-%s h2 a", contractID))
	p.WaitText("main table.terms tbody", "scheduled")
	checkScreen(p, "contract")
	p.Click("form[action$='/termination-quote'] button")
	p.WaitText("main .notice", "quote")
	checkScreen(p, "termination quote")
	p.Click("form[action$='/terminate'] button")
	p.WaitText("main .notice", "terminated")
	p.WaitText("#contract-status", "terminated")
	checkScreen(p, "terminated")

	// Another seller's admin finds neither.
	other, err := auth.CreateSeller(t.Context(), s.svc.Offers.Store, "Other Seller GmbH", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	otherEmail := "admin@other.example"
	otherPassword, otherSecret := newSellerUser(t, s.svc, other.Seller.ID, otherEmail, console.Admin)
	p.Click("form[action='/console/sign-out'] button")
	p.WaitText("h1", "Sign in")
	p.Open(s.url + "/console/portal/orders/" + orderID.String())
	p.WaitText("h1", "Sign in")
	signInAs(p, otherEmail, otherPassword, otherSecret)
	p.WaitText("main .problem", "no such page")
	p.Open(s.url + "/console/portal/contracts/" + contractID.String())
	p.WaitText("main .problem", "no such page")
	p.Open(s.url + "/console/portal/orders")
	p.WaitText("main .empty", "No customer has ordered yet")
	entries, err := s.svc.Console.Accounts.AuditLog(t.Context(), "", time.Time{}, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]console.Outcome{}
	for _, e := range entries {
		if e.ActorEmail == email {
			done[e.Action] = e.Outcome
		}
	}
	for action, want := range map[string]console.Outcome{"portal.order.acknowledge": console.Succeeded, "portal.order.reject": console.Refused,
		"portal.order.ship": console.Succeeded, "portal.contract.quote_termination": console.Succeeded, "portal.contract.terminate": console.Succeeded} {
		if done[action] != want {
			t.Errorf("the audit log has %s %q, want %q", action, done[action], want)
		}
	}
}
