-- name: CreateSellerCredential :one
INSERT INTO seller_credentials (client_id, seller_id, secret_hash)
VALUES ($1, $2, $3)
RETURNING *;

-- name: GetSellerCredential :one
-- A live credential: a revoked one is not found, so it gets no token.
SELECT * FROM seller_credentials WHERE client_id = $1 AND revoked_at IS NULL;

-- name: ListSellerCredentials :many
SELECT * FROM seller_credentials WHERE seller_id = $1 ORDER BY created_at, client_id;

-- name: RotateSellerCredential :one
UPDATE seller_credentials
SET secret_hash = $2, rotated_at = now(), generation = generation + 1
WHERE client_id = $1 AND revoked_at IS NULL
RETURNING *;

-- name: RevokeSellerCredential :one
-- Revokes a seller's live credential; the generation moves on, so the
-- trigger of migration 00050 tells every API process to forget it.
UPDATE seller_credentials
SET revoked_at = now(), generation = generation + 1
WHERE client_id = $1 AND seller_id = $2 AND revoked_at IS NULL
RETURNING *;

-- name: GetSellerCredentialGeneration :one
-- The generation access tokens of a credential must carry; a revoked
-- credential has none, so its tokens are refused.
SELECT generation FROM seller_credentials WHERE client_id = $1 AND revoked_at IS NULL;
