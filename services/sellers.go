package services

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/sellers"
)

// Sellers reads and changes sellers' profiles.
type Sellers struct {
	Store *db.Store
}

// ErrSellerNotFound says no seller has an id (any more).
var ErrSellerNotFound = errors.New("no such seller")

// Profile reads a seller's profile.
func (s *Sellers) Profile(ctx context.Context, sellerID uuid.UUID) (sellers.Profile, error) {
	p, err := sellers.Load(ctx, s.Store.Queries, sellerID)
	if db.IsNotFound(err) {
		return p, ErrSellerNotFound
	}
	return p, err
}

// UpdateProfile changes a seller's profile in one transaction: change
// edits the current profile, and an error from it (such as a refused
// value) leaves the profile unchanged and is returned as it is.
func (s *Sellers) UpdateProfile(ctx context.Context, sellerID uuid.UUID, change func(*sellers.Profile) error) (sellers.Profile, error) {
	return sellers.Update(ctx, s.Store, sellerID, change)
}

// ErrUnknownClient says no seller has a client with an id.
var ErrUnknownClient = errors.New("no such client")

// Client reads the API client with an id, to check a secret against.
func (s *Sellers) Client(ctx context.Context, clientID string) (auth.Client, error) {
	c, err := s.Store.GetSellerCredential(ctx, clientID)
	if db.IsNotFound(err) {
		return auth.Client{}, ErrUnknownClient
	}
	if err != nil {
		return auth.Client{}, err
	}
	return auth.ClientOf(c), nil
}

// Credentials are a seller's API clients, revoked ones too, oldest first;
// their secrets are only hashes.
func (s *Sellers) Credentials(ctx context.Context, sellerID uuid.UUID) ([]dbgen.SellerCredential, error) {
	return s.Store.ListSellerCredentials(ctx, sellerID)
}

// CreateCredential gives a seller another API client; its secret is in
// the answer only.
func (s *Sellers) CreateCredential(ctx context.Context, sellerID uuid.UUID) (auth.Credentials, error) {
	return auth.CreateCredential(ctx, s.Store, sellerID)
}

// RotateCredential replaces the secret of one of a seller's clients, as
// `tenure sellers rotate-secret` does; another seller's client is
// auth.ErrNoCredential.
func (s *Sellers) RotateCredential(ctx context.Context, sellerID uuid.UUID, clientID string) (auth.Credentials, error) {
	return auth.RotateSellerSecret(ctx, s.Store, sellerID, clientID)
}

// RevokeCredential revokes one of a seller's clients; another seller's
// client is auth.ErrNoCredential.
func (s *Sellers) RevokeCredential(ctx context.Context, sellerID uuid.UUID, clientID string) error {
	return auth.RevokeCredential(ctx, s.Store, sellerID, clientID)
}
