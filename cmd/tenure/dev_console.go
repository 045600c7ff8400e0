package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/console"
)

// devSignInLink is a one-time link `tenure dev` prints to open the console
// as one of its sandbox accounts.
type devSignInLink struct {
	Email, Who, Link string
}

// devOperatorEmail is the sandbox operator's address; the sandbox seller's
// admin has one of their seller's (devSellerAdminEmail), so a new sandbox
// seller gets a new admin.
const devOperatorEmail = "operator@sandbox.example"

// devSellerAdminEmail is the address of a sandbox seller's admin.
func devSellerAdminEmail(sellerID uuid.UUID) string {
	return "admin." + strings.ReplaceAll(sellerID.String(), "-", "")[:12] + "@sandbox.example"
}

// devInvitedBy names `tenure dev` in the invitations it makes.
const devInvitedBy = "tenure dev"

// devSignInLinks makes the sandbox operator (an admin) and the sandbox
// seller's admin when they are missing, and a fresh invitation for each:
// its link, opened once, sets a password and the TOTP key and signs in.
// A run of `tenure dev` makes new links; the older ones stop working
// when one is accepted, or expire.
func devSignInLinks(ctx context.Context, cfg *config.Config, store *db.Store, sellerID uuid.UUID) ([]devSignInLink, error) {
	ring, err := cfg.Console.TOTPRing()
	if err != nil {
		return nil, fmt.Errorf("console.totp_keys: %w", err)
	}
	accounts := &console.Accounts{Store: store, TOTPKeys: ring, IdleTimeout: cfg.Console.IdleTimeout,
		AbsoluteTimeout: cfg.Console.AbsoluteTimeout, InvitationTTL: cfg.Console.InvitationTTL, Now: time.Now}
	wanted := []struct {
		who  string
		user console.User
	}{
		{"operator, admin", console.User{Kind: console.Operator, Email: devOperatorEmail, Role: console.Admin}},
		{"seller admin", console.User{Kind: console.SellerUser, Email: devSellerAdminEmail(sellerID), Role: console.Admin, SellerID: &sellerID}},
	}
	links := make([]devSignInLink, 0, len(wanted))
	for _, w := range wanted {
		inv, err := accounts.InviteAccount(ctx, w.user, devInvitedBy)
		if err != nil {
			return nil, fmt.Errorf("the sign-in link of %s: %w", w.user.Email, err)
		}
		links = append(links, devSignInLink{Email: inv.User.Email, Who: w.who, Link: console.InvitationLink(cfg.ConsoleOrigin(), inv.Token)})
	}
	return links, nil
}
