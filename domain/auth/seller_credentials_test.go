package auth_test

import (
	"errors"
	"testing"

	"github.com/tenurehq/tenure/domain/auth"
)

// A seller creates, rotates and revokes its own clients only; a revoked
// client's tokens are refused at once by a listening API process, its
// secret gets no token (it is not found), and it stays listed.
func TestSellerCredentials(t *testing.T) {
	store, r, s := listening(t)
	ctx := t.Context()
	other := newSeller(t, store)
	if _, err := auth.RotateSellerSecret(ctx, store, s.Seller.ID, other.Credentials.ClientID); !errors.Is(err, auth.ErrNoCredential) {
		t.Errorf("rotating another seller's client: %v", err)
	}
	if err := auth.RevokeCredential(ctx, store, s.Seller.ID, other.Credentials.ClientID); !errors.Is(err, auth.ErrNoCredential) {
		t.Errorf("revoking another seller's client: %v", err)
	}
	if err := r.Check(ctx, claimsOf(other, 0)); err != nil {
		t.Errorf("the other seller's client after the refused attempts: %v", err)
	}
	second, err := auth.CreateCredential(ctx, store, s.Seller.ID)
	if err != nil {
		t.Fatal(err)
	}
	if cred, err := store.GetSellerCredential(ctx, second.ClientID); err != nil || cred.SellerID != s.Seller.ID || !auth.SecretMatches(cred.SecretHash, second.ClientSecret) {
		t.Errorf("the created client: %+v %v", cred, err)
	}
	if err := auth.RevokeCredential(ctx, store, s.Seller.ID, s.Credentials.ClientID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the revoked client's tokens are refused", func() bool {
		return errors.Is(r.Check(ctx, claimsOf(s, 0)), auth.ErrRevoked)
	})
	if _, err := store.GetSellerCredential(ctx, s.Credentials.ClientID); err == nil {
		t.Error("the token endpoint still finds the revoked client")
	}
	if _, err := auth.RotateSellerSecret(ctx, store, s.Seller.ID, s.Credentials.ClientID); !errors.Is(err, auth.ErrNoCredential) {
		t.Errorf("rotating a revoked client: %v", err)
	}
	if err := auth.RevokeCredential(ctx, store, s.Seller.ID, s.Credentials.ClientID); !errors.Is(err, auth.ErrNoCredential) {
		t.Errorf("revoking twice: %v", err)
	}
	listed, err := store.ListSellerCredentials(ctx, s.Seller.ID)
	if err != nil || len(listed) != 2 || listed[0].RevokedAt == nil || listed[1].RevokedAt != nil {
		t.Errorf("listed: %+v %v", listed, err)
	}
}
