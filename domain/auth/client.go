package auth

import (
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Client is a seller's API client as Tenure keeps it: the hash of its
// secret, and the generation each rotation of the secret advances (see
// Revocations).
type Client struct {
	ID         string
	SellerID   uuid.UUID
	SecretHash string
	Generation int32
}

// ClientOf is a stored credential.
func ClientOf(c dbgen.SellerCredential) Client {
	return Client{ID: c.ClientID, SellerID: c.SellerID, SecretHash: c.SecretHash, Generation: c.Generation}
}
