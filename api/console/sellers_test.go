package console_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	consoleapi "github.com/tenurehq/tenure/api/console"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
)

// An admin registers a seller (its secret shown once), changes its
// profile (a refused value changes nothing), rotates and revokes its API
// client (another seller's client answers 404 and stays as it is); finance
// reads the page without its forms; every change is audited.
func TestOperatorsManageSellers(t *testing.T) {
	h := newRightsHarness(t)
	store := h.accounts.Store
	admin := h.signIn(t, "admin@example.com")
	send := func(method, path string, form url.Values) (*http.Response, string) {
		t.Helper()
		resp := h.do(t, h.request(consoleapi.RouteRights{Method: method, Path: path}, &admin, form))
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	sellerNamed := func(name string) (uuid.UUID, bool) {
		all, err := store.ListSellers(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range all {
			if s.Name == name {
				return s.ID, true
			}
		}
		return uuid.Nil, false
	}

	if resp, body := send(fiber.MethodPost, "/sellers", url.Values{"name": {" "}, "currency": {"EUR"}}); resp.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(body, "needs a name") {
		t.Errorf("a seller without a name: %d", resp.StatusCode)
	}
	resp, body := send(fiber.MethodPost, "/sellers", url.Values{"name": {"Neu GmbH"}, "currency": {"eur"}})
	id, ok := sellerNamed("Neu GmbH")
	if resp.StatusCode != http.StatusCreated || !ok || !strings.Contains(body, "tsk_") {
		t.Fatalf("registering: %d, seller found %v\n%.300s", resp.StatusCode, ok, body)
	}
	clients, err := store.ListSellerCredentials(t.Context(), id)
	if err != nil || len(clients) != 1 {
		t.Fatalf("the new seller's clients: %v, %v", clients, err)
	}
	client := clients[0].ClientID
	seller := "/sellers/" + id.String()

	if resp, _ := send(fiber.MethodPost, seller+"/profile", url.Values{"name": {"Neu Handel GmbH"}, "contractual_entity": {"nowhere"}}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("an unknown contractual entity: %d, want 422", resp.StatusCode)
	}
	if resp, _ := send(fiber.MethodPost, seller+"/profile", url.Values{"name": {"Neu Handel GmbH"}, "email": {"ops@neu.example"}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a profile change: %d, want 303", resp.StatusCode)
	}
	if _, ok := sellerNamed("Neu Handel GmbH"); !ok {
		t.Error("the profile's new name was not saved")
	}

	// Another seller's client is not this seller's to rotate or revoke.
	others, err := store.ListSellers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range others {
		if o.ID == id {
			continue
		}
		theirs, err := store.ListSellerCredentials(t.Context(), o.ID)
		if err != nil || len(theirs) == 0 {
			t.Fatalf("%s's clients: %v", o.Name, err)
		}
		for _, action := range []string{"/rotate", "/revoke"} {
			if resp, _ := send(fiber.MethodPost, seller+action, url.Values{"client_id": {theirs[0].ClientID}}); resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s of another seller's client: %d, want 404", action, resp.StatusCode)
			}
		}
		if after, err := store.GetSellerCredential(t.Context(), theirs[0].ClientID); err != nil || after.SecretHash != theirs[0].SecretHash {
			t.Errorf("another seller's client changed: %v", err)
		}
	}

	resp, body = send(fiber.MethodPost, seller+"/rotate", url.Values{"client_id": {client}})
	rotated, err := store.GetSellerCredential(t.Context(), client)
	if resp.StatusCode != http.StatusOK || err != nil || rotated.Generation != 1 {
		t.Fatalf("rotating: %d, generation %d, %v", resp.StatusCode, rotated.Generation, err)
	}
	secret := body[strings.Index(body, "tsk_"):]
	secret = secret[:strings.IndexAny(secret, "<\" ")]
	if !auth.SecretMatches(rotated.SecretHash, secret) {
		t.Error("the secret shown is not the client's")
	}
	if resp, _ := send(fiber.MethodPost, seller+"/revoke", url.Values{"client_id": {client}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("revoking: %d, want 303", resp.StatusCode)
	}
	if _, err := store.GetSellerCredential(t.Context(), client); !db.IsNotFound(err) {
		t.Errorf("the revoked client is still there: %v", err)
	}

	finance := h.signIn(t, "finance@example.com")
	read := h.do(t, h.request(consoleapi.RouteRights{Method: fiber.MethodGet, Path: seller}, &finance, nil))
	page, _ := io.ReadAll(read.Body)
	if read.StatusCode != http.StatusOK || !strings.Contains(string(page), "Neu Handel GmbH") || strings.Contains(string(page), "/profile\"") {
		t.Errorf("finance reads the seller: %d, with the profile form: %v", read.StatusCode, strings.Contains(string(page), "/profile\""))
	}

	entries, err := h.accounts.AuditLog(t.Context(), "", time.Time{}, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, e := range entries {
		if strings.HasPrefix(e.Action, "seller.") {
			counts[e.Action+" "+string(e.Outcome)]++
		}
	}
	for want, n := range map[string]int{"seller.create succeeded": 1, "seller.profile refused": 1, "seller.profile succeeded": 1,
		"seller.rotate_secret succeeded": 1, "seller.revoke_client succeeded": 1} {
		if counts[want] != n {
			t.Errorf("audit %q: %d entries, want %d (all: %v)", want, counts[want], n, counts)
		}
	}
}
