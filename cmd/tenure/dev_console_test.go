package main

import (
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// `tenure dev`'s sign-in links: the sandbox operator (an admin) and the
// sandbox seller's admin are made on the first run, each link opens an
// invitation of its account, and the next run makes new links for the
// same accounts.
func TestDevSignInLinks(t *testing.T) {
	cfg := testenv.Config(t)
	cfg.HTTP.PublicURL = "http://127.0.0.1:8080"
	store := testenv.Database(t)
	seller, err := auth.CreateSeller(t.Context(), store, "Sandbox Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	ring, err := cfg.Console.TOTPRing()
	if err != nil {
		t.Fatal(err)
	}
	accounts := &console.Accounts{Store: store, TOTPKeys: ring, InvitationTTL: cfg.Console.InvitationTTL, Now: time.Now}
	first, err := devSignInLinks(t.Context(), cfg, store, seller.Seller.ID)
	if err != nil {
		t.Fatal(err)
	}
	again, err := devSignInLinks(t.Context(), cfg, store, seller.Seller.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind     console.Kind
		role     console.Role
		ofSeller bool
	}{{console.Operator, console.Admin, false}, {console.SellerUser, console.Admin, true}}
	if len(first) != len(want) || len(again) != len(want) {
		t.Fatalf("links %+v, then %+v", first, again)
	}
	for i, w := range want {
		if first[i].Email != again[i].Email || first[i].Link == again[i].Link {
			t.Errorf("link %d: %+v, then %+v: want the same account and a new link", i, first[i], again[i])
		}
		for _, l := range []devSignInLink{first[i], again[i]} {
			token, ok := strings.CutPrefix(l.Link, cfg.ConsoleOrigin()+"/console/invitation/")
			if !ok {
				t.Fatalf("link %q is not an invitation of the console", l.Link)
			}
			open, err := accounts.Invitation(t.Context(), token)
			if err != nil {
				t.Fatalf("link %q: %v", l.Link, err)
			}
			u := open.User
			if u.Email != l.Email || u.Kind != w.kind || u.Role != w.role || (u.SellerID != nil) != w.ofSeller ||
				(w.ofSeller && *u.SellerID != seller.Seller.ID) {
				t.Errorf("link %q opens the account %+v", l.Link, u)
			}
		}
	}
}
