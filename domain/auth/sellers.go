package auth

import (
	"context"
	"fmt"
	"regexp"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// NewSeller is a seller just registered, with its first credentials in clear.
type NewSeller struct {
	Seller      dbgen.Seller
	Credentials Credentials
}

var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// CreateSeller registers a seller and its first client credentials in one
// transaction.
func CreateSeller(ctx context.Context, store *db.Store, name, currency string) (NewSeller, error) {
	if name == "" {
		return NewSeller{}, fmt.Errorf("a seller needs a name")
	}
	if !currencyCode.MatchString(currency) {
		return NewSeller{}, fmt.Errorf("currency must be a three-letter ISO 4217 code such as EUR, got %q", currency)
	}
	creds, err := NewCredentials()
	if err != nil {
		return NewSeller{}, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return NewSeller{}, err
	}
	var seller dbgen.Seller
	err = store.InTx(ctx, func(q *dbgen.Queries) error {
		seller, err = q.CreateSeller(ctx, dbgen.CreateSellerParams{ID: id, Name: name, Currency: currency})
		if err != nil {
			return fmt.Errorf("creating seller: %w", err)
		}
		_, err = q.CreateSellerCredential(ctx, dbgen.CreateSellerCredentialParams{
			ClientID: creds.ClientID, SellerID: id, SecretHash: creds.SecretHash,
		})
		if err != nil {
			return fmt.Errorf("creating credentials: %w", err)
		}
		return nil
	})
	return NewSeller{Seller: seller, Credentials: creds}, err
}

// RotateSecret replaces a client's secret; the old one stops working at
// once, and the rotation advances the credential's generation, which
// revokes every access token issued before it (see Revocations). It returns
// the client's seller and the new credentials.
func RotateSecret(ctx context.Context, store *db.Store, clientID string) (uuid.UUID, Credentials, error) {
	creds, err := NewSecret()
	if err != nil {
		return uuid.Nil, Credentials{}, err
	}
	cred, err := store.RotateSellerCredential(ctx, dbgen.RotateSellerCredentialParams{ClientID: clientID, SecretHash: creds.SecretHash})
	if db.IsNotFound(err) {
		return uuid.Nil, Credentials{}, fmt.Errorf("no client with id %q", clientID)
	}
	if err != nil {
		return uuid.Nil, Credentials{}, err
	}
	creds.ClientID = cred.ClientID
	return cred.SellerID, creds, nil
}
