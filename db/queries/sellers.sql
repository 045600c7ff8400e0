-- name: CreateSeller :one
INSERT INTO sellers (id, name, currency)
VALUES ($1, $2, $3)
RETURNING *;

-- name: GetSeller :one
SELECT * FROM sellers WHERE id = $1;

-- name: ListSellers :many
SELECT * FROM sellers ORDER BY created_at, id;
