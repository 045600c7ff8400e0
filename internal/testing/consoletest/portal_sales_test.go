package consoletest

import (
	"html"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/console"
)

// An agent keeps their name and phone in their sales profile once: a
// profile without a phone is refused beside the field and changes
// nothing, a saved one is audited and fills the builder's agent fields,
// which the agent may still change for one offer.
func TestAgentKeepsASalesProfile(t *testing.T) {
	s := newStack(t)
	email := "profile@musterhandel.example"
	password, secret := newSellerUser(t, s.svc, s.sellerID, email, console.Agent)
	f := &formClient{t: t, base: s.url}
	f.signIn(email, password, secret)

	_, page := f.do(http.MethodGet, "/console/portal/offers/new", nil)
	if !strings.Contains(page, `name="agent_name" type="text" value="`+email+`"`) || !strings.Contains(page, `href="/console/portal/profile"`) {
		t.Fatalf("without a profile the builder does not preset the agent's address or link the profile\n%.4000s", page)
	}

	resp, page := f.do(http.MethodPost, "/console/portal/profile", url.Values{"full_name": {"Anna Agentin"}, "phone": {"  "}})
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(page, `id="phone-problem"`) || strings.Contains(page, `id="full_name-problem"`) {
		t.Fatalf("a profile without a phone: %d\n%.3000s", resp.StatusCode, page)
	}
	resp, page = f.do(http.MethodPost, "/console/portal/profile", url.Values{"full_name": {strings.Repeat("x", 256)}, "phone": {"+49 30 1"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(page, "At most 255 characters") {
		t.Fatalf("a name too long: %d\n%.3000s", resp.StatusCode, page)
	}
	user, err := s.svc.Offers.Store.GetConsoleUserByEmail(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.svc.Offers.Store.GetSellerUserProfile(t.Context(), user.ID); !db.IsNotFound(err) {
		t.Fatalf("a refused profile was kept: %+v, %v", p, err)
	}

	resp, _ = f.do(http.MethodPost, "/console/portal/profile", url.Values{"full_name": {" Anna Agentin "}, "phone": {"+49 30 1234"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/console/portal/profile?done=saved" {
		t.Fatalf("saving the profile: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, page = f.do(http.MethodGet, "/console/portal/profile?done=saved", nil)
	page = html.UnescapeString(page)
	if !strings.Contains(page, "Your sales profile is saved") || !strings.Contains(page, `value="Anna Agentin"`) || !strings.Contains(page, `value="+49 30 1234"`) {
		t.Fatalf("the saved profile is not shown\n%.3000s", page)
	}
	entries, err := s.svc.Console.Accounts.AuditLog(t.Context(), "portal.profile.update", time.Time{}, uuid.Nil)
	if err != nil || len(entries) != 1 || entries[0].Target != "user "+email || entries[0].Outcome != console.Succeeded || entries[0].Detail != "Anna Agentin, +49 30 1234" {
		t.Fatalf("the audit log of the profile: %+v, %v", entries, err)
	}

	_, page = f.do(http.MethodGet, "/console/portal/offers/new", nil)
	page = html.UnescapeString(page)
	if !strings.Contains(page, `name="agent_name" type="text" value="Anna Agentin"`) || !strings.Contains(page, `name="agent_phone" type="tel" value="+49 30 1234"`) {
		t.Fatalf("the builder is not filled in from the profile\n%.4000s", page)
	}
	// The agent answers this customer from the shop's counter phone.
	reference := "profile-" + uuid.NewString()[:8]
	create := url.Values{"action": {"create"}, "channel": {"in_store_pos"}, "valid_days": {"7"}, "reference": {reference},
		"agent_name": {"Anna Agentin"}, "agent_phone": {"+49 30 9999"}, "line_source": {"sku"}, "line_reference": {"server"},
		"line_title": {"Server"}, "line_quantity": {"1"}, "line_price": {"5000.00"}, "line_currency": {"EUR"},
		"company": {"Profilkunde GmbH"}, "full_name": {"Paul Profil"}, "email": {"paul@kunde.example"}}
	if resp, page := f.do(http.MethodPost, "/console/portal/offers/new", create); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("creating the offer: %d\n%.3000s", resp.StatusCode, page)
	}
	o, err := s.svc.Offers.GetByReference(t.Context(), s.sellerID, reference)
	if err != nil {
		t.Fatal(err)
	}
	if a := o.Document.SalesAgent; a == nil || a.Name != "Anna Agentin" || a.Phone != "+49 30 9999" || a.Email != email {
		t.Errorf("the offer's sales agent is %+v, want the profile's name, the phone typed for it and the user's address", a)
	}
}

// A seller's admin finds orders by status, by their reference, id or
// company, and reads the contracts newest first, a page older than a
// cursor; each contract in one page only.
func TestSellerFindsOrdersAndReadsContractsNewestFirst(t *testing.T) {
	s := newStack(t)
	ids := map[string]uuid.UUID{}
	refs := map[string]string{}
	for _, company := range []string{"Alpha", "Beta", "Gamma"} {
		offerID := s.offerInReview(t, company+" Kunde GmbH")
		if err := s.svc.Offers.Accept(t.Context(), s.sellerID, offerID); err != nil {
			t.Fatal(err)
		}
		ids[company] = s.orderOf(t, offerID)
		o, err := s.svc.Offers.Get(t.Context(), s.sellerID, offerID)
		if err != nil {
			t.Fatal(err)
		}
		refs[company] = o.Row.SellerOfferReference
	}
	if _, err := s.svc.Orders.Acknowledge(t.Context(), s.sellerID, ids["Beta"]); err != nil {
		t.Fatal(err)
	}
	// Confirmed, Alpha's order and then Gamma's have their contracts.
	for _, company := range []string{"Alpha", "Gamma"} {
		if _, err := s.svc.Orders.Accept(t.Context(), s.sellerID, ids[company]); err != nil {
			t.Fatal(err)
		}
	}
	email := "finder@musterhandel.example"
	password, secret := newSellerUser(t, s.svc, s.sellerID, email, console.Admin)
	f := &formClient{t: t, base: s.url}
	f.signIn(email, password, secret)

	for query, want := range map[string][]string{
		"status=acknowledged":                    {"Beta"},
		"status=confirmed":                       {"Alpha", "Gamma"},
		"q=gamma+kunde":                          {"Gamma"},
		"q=" + ids["Alpha"].String():             {"Alpha"},
		"q=" + url.QueryEscape(refs["Beta"][3:]): {"Beta"},
		"q=alpha&status=acknowledged":            nil,
		"":                                       {"Alpha", "Beta", "Gamma"},
	} {
		resp, page := f.do(http.MethodGet, "/console/portal/orders?"+query, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("orders?%s: %d", query, resp.StatusCode)
		}
		for company, id := range ids {
			listed := strings.Contains(page, `id="order-`+id.String()+`"`)
			if wanted := slices.Contains(want, company); listed != wanted {
				t.Errorf("orders?%s lists %s's order: %v, want %v", query, company, listed, wanted)
			}
		}
		if want == nil && !strings.Contains(page, "No order matches.") {
			t.Errorf("orders?%s says nothing of no order matching", query)
		}
	}
	if resp, page := f.do(http.MethodGet, "/console/portal/orders?status=lost", nil); resp.StatusCode != http.StatusBadRequest || !strings.Contains(page, "There is no order status “lost”.") {
		t.Errorf("an unknown status: %d\n%.2000s", resp.StatusCode, page)
	}

	newest, err := s.svc.Contracts.ListNewest(t.Context(), s.sellerID, time.Time{}, uuid.Nil, 100)
	if err != nil || len(newest) < 2 {
		t.Fatalf("contracts: %d, %v", len(newest), err)
	}
	if newest[0].OrderID != ids["Gamma"] || newest[len(newest)-1].OrderID != ids["Alpha"] {
		t.Errorf("the newest contract is of order %s and the oldest of %s, want Gamma's and Alpha's", newest[0].OrderID, newest[len(newest)-1].OrderID)
	}
	// Paged one at a time, every contract comes once, newest first.
	var paged []uuid.UUID
	at, id := time.Time{}, uuid.Nil
	for range len(newest) + 1 {
		page, err := s.svc.Contracts.ListNewest(t.Context(), s.sellerID, at, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		paged = append(paged, page[0].ID)
		at, id = page[0].CreatedAt, page[0].ID
	}
	for i, k := range newest {
		if i >= len(paged) || paged[i] != k.ID {
			t.Fatalf("paged one by one the contracts are %v, want %d in the order of the whole list", paged, len(newest))
		}
	}
	if len(paged) != len(newest) {
		t.Fatalf("paged one by one %d contracts, want %d", len(paged), len(newest))
	}

	_, page := f.do(http.MethodGet, "/console/portal/contracts", nil)
	first, last := strings.Index(page, `id="contract-`+newest[0].ID.String()+`"`), strings.Index(page, `id="contract-`+newest[len(newest)-1].ID.String()+`"`)
	if first < 0 || last < 0 || first > last {
		t.Errorf("the contracts page does not show the newest first (%d, %d)\n%.3000s", first, last, page)
	}
	cursor := newest[0].CreatedAt.UTC().Format(time.RFC3339Nano) + "_" + newest[0].ID.String()
	_, page = f.do(http.MethodGet, "/console/portal/contracts?before="+url.QueryEscape(cursor), nil)
	if strings.Contains(page, `id="contract-`+newest[0].ID.String()+`"`) || !strings.Contains(page, `id="contract-`+newest[1].ID.String()+`"`) {
		t.Errorf("the page before the newest contract shows it, or not the next\n%.3000s", page)
	}
	if resp, _ := f.do(http.MethodGet, "/console/portal/contracts?before=yesterday", nil); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a cursor that is none: %d, want 400", resp.StatusCode)
	}
}
