package auth

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// ErrNoCredential is a client id the seller has no live credential of:
// another seller's, a revoked one, or none at all.
var ErrNoCredential = errors.New("the seller has no live credential with this client id")

// CreateCredential gives a seller another client (one per integration),
// returning its secret in clear, once.
func CreateCredential(ctx context.Context, store *db.Store, sellerID uuid.UUID) (Credentials, error) {
	creds, err := NewCredentials()
	if err != nil {
		return Credentials{}, err
	}
	_, err = store.CreateSellerCredential(ctx, dbgen.CreateSellerCredentialParams{
		ClientID: creds.ClientID, SellerID: sellerID, SecretHash: creds.SecretHash,
	})
	return creds, err
}

// RotateSellerSecret is RotateSecret for a seller acting on its own
// clients: another seller's client is ErrNoCredential.
func RotateSellerSecret(ctx context.Context, store *db.Store, sellerID uuid.UUID, clientID string) (Credentials, error) {
	cred, err := store.GetSellerCredential(ctx, clientID)
	if db.IsNotFound(err) || (err == nil && cred.SellerID != sellerID) {
		return Credentials{}, ErrNoCredential
	}
	if err != nil {
		return Credentials{}, err
	}
	_, creds, err := RotateSecret(ctx, store, clientID)
	return creds, err
}

// RevokeCredential ends a seller's client for good: its secret gets no
// token any more and the tokens it got are refused at once (Revocations
// is told, as for a rotation). The credential stays listed, revoked.
func RevokeCredential(ctx context.Context, store *db.Store, sellerID uuid.UUID, clientID string) error {
	_, err := store.RevokeSellerCredential(ctx, dbgen.RevokeSellerCredentialParams{ClientID: clientID, SellerID: sellerID})
	if db.IsNotFound(err) {
		return ErrNoCredential
	}
	return err
}
