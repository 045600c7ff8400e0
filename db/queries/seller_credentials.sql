-- name: CreateSellerCredential :one
INSERT INTO seller_credentials (client_id, seller_id, secret_hash)
VALUES ($1, $2, $3)
RETURNING *;

-- name: GetSellerCredential :one
SELECT * FROM seller_credentials WHERE client_id = $1;

-- name: ListSellerCredentials :many
SELECT * FROM seller_credentials WHERE seller_id = $1 ORDER BY created_at, client_id;

-- name: RotateSellerCredential :one
UPDATE seller_credentials
SET secret_hash = $2, rotated_at = now(), generation = generation + 1
WHERE client_id = $1
RETURNING *;

-- name: GetSellerCredentialGeneration :one
SELECT generation FROM seller_credentials WHERE client_id = $1;

-- name: RevokeSellerCredential :execrows
-- Removes one of a seller's clients: its secret stops working at once, and
-- the deletion's announcement revokes its access tokens.
DELETE FROM seller_credentials WHERE seller_id = $1 AND client_id = $2;
