package services

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
)

// The merchant portal's foundation: a seller admin's users and API
// credentials, each change written to the audit log. A seller user acts
// only on their own seller (who.User.SellerID): another seller's user or
// credential is not found.

// UserTarget names an account as the audit log's target.
func UserTarget(email string) string { return "user " + email }

// CredentialTarget names an API client as the audit log's target.
func CredentialTarget(clientID string) string { return "credential " + clientID }

// SellerName is a seller's name, for the pages that show whose record it is.
func (c *Console) SellerName(ctx context.Context, sellerID uuid.UUID) (string, error) {
	s, err := c.Offers.Store.GetSeller(ctx, sellerID)
	return s.Name, err
}

// InvitationLink is the link of an invitation, under the public address.
func (c *Console) InvitationLink(inv console.Invitation) string {
	return console.InvitationLink(c.ConsoleURL, inv.Token)
}

// InviteSellerUser makes an account of the actor's seller for an e-mail
// address and role, and its invitation; the link is for the actor to hand
// over, and is shown only now.
func (c *Console) InviteSellerUser(ctx context.Context, who console.Actor, email string, role console.Role) (console.Invitation, error) {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return console.Invitation{}, err
	}
	inv, err := c.Accounts.InviteSellerUser(ctx, sellerID, email, role, who.User.Email)
	if errors.Is(err, console.ErrNotAnEmail) {
		return inv, err
	}
	return inv, c.audited(ctx, who, "seller_user.invite", UserTarget(strings.ToLower(email)), string(role), outcomeOf(err, oneOf(err, console.ErrEmailTaken)), err)
}

// ReinviteSellerUser makes a new invitation for one of the actor's
// seller's users whose invitation expired or was lost: accepting it sets
// the password anew.
func (c *Console) ReinviteSellerUser(ctx context.Context, who console.Actor, userID uuid.UUID) (console.Invitation, error) {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return console.Invitation{}, err
	}
	u, err := c.Accounts.SellerUser(ctx, sellerID, userID)
	if err != nil {
		return console.Invitation{}, err
	}
	inv, err := c.Accounts.Invite(ctx, u, who.User.Email)
	return inv, c.audited(ctx, who, "seller_user.reinvite", UserTarget(u.Email), "", outcomeOf(err, false), err)
}

// DisableSellerUser disables one of the actor's seller's users, never the
// actor.
func (c *Console) DisableSellerUser(ctx context.Context, who console.Actor, userID uuid.UUID) error {
	u, err := c.Accounts.DisableSellerUser(ctx, who.User, userID)
	if errors.Is(err, console.ErrNoSellerUser) {
		return err
	}
	target := UserTarget(u.Email)
	if errors.Is(err, console.ErrDisableSelf) {
		target = UserTarget(who.User.Email)
	}
	return c.audited(ctx, who, "seller_user.disable", target, "", outcomeOf(err, oneOf(err, console.ErrDisableSelf)), err)
}

// Credentials are the actor's seller's API clients, revoked ones too.
func (c *Console) Credentials(ctx context.Context, who console.Actor) ([]dbgen.SellerCredential, error) {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return nil, err
	}
	return c.Sellers.Credentials(ctx, sellerID)
}

// CreateCredential gives the actor's seller another API client; the
// secret is in the answer only.
func (c *Console) CreateCredential(ctx context.Context, who console.Actor) (auth.Credentials, error) {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return auth.Credentials{}, err
	}
	creds, err := c.Sellers.CreateCredential(ctx, sellerID)
	return creds, c.audited(ctx, who, "credential.create", CredentialTarget(creds.ClientID), "", outcomeOf(err, false), err)
}

// RotateCredential replaces the secret of one of the actor's seller's
// clients: the old secret and its tokens stop working at once.
func (c *Console) RotateCredential(ctx context.Context, who console.Actor, clientID string) (auth.Credentials, error) {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return auth.Credentials{}, err
	}
	creds, err := c.Sellers.RotateCredential(ctx, sellerID, clientID)
	if errors.Is(err, auth.ErrNoCredential) {
		return creds, err
	}
	return creds, c.audited(ctx, who, "credential.rotate", CredentialTarget(clientID), "", outcomeOf(err, false), err)
}

// RevokeCredential revokes one of the actor's seller's clients for good.
func (c *Console) RevokeCredential(ctx context.Context, who console.Actor, clientID string) error {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return err
	}
	err = c.Sellers.RevokeCredential(ctx, sellerID, clientID)
	if errors.Is(err, auth.ErrNoCredential) {
		return err
	}
	return c.audited(ctx, who, "credential.revoke", CredentialTarget(clientID), "", outcomeOf(err, false), err)
}

// AcceptInvitation sets an invited account up and signs it in, writing
// the acceptance to the audit log.
func (c *Console) AcceptInvitation(ctx context.Context, token, password, code, address, requestID string) (console.Session, error) {
	sess, err := c.Accounts.AcceptInvitation(ctx, token, password, code, address)
	if errors.Is(err, console.ErrCodeRefused) {
		// A wrong code is audited as a refused sign-in is, by its account.
		open, openErr := c.Accounts.Invitation(ctx, token)
		if openErr != nil {
			return sess, errors.Join(err, openErr)
		}
		who := console.Actor{User: open.User, Address: address, RequestID: requestID}
		return sess, c.audited(ctx, who, "invitation.accept", UserTarget(open.User.Email), "", outcomeOf(err, oneOf(err, console.ErrCodeRefused)), err)
	}
	if err != nil {
		return sess, err
	}
	who := console.Actor{User: sess.User, Address: address, RequestID: requestID}
	return sess, c.audited(ctx, who, "invitation.accept", UserTarget(sess.User.Email), "", console.Succeeded, nil)
}
