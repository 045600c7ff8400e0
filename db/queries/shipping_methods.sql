-- name: CreateShippingMethod :one
-- A duplicate reference inserts nothing and returns no row.
INSERT INTO shipping_methods (id, seller_id, seller_shipping_method_reference, name, is_in_store_pickup, supported)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (seller_id, seller_shipping_method_reference) DO NOTHING
RETURNING *;

-- name: ListShippingMethods :many
SELECT * FROM shipping_methods
WHERE seller_id = $1
ORDER BY id
LIMIT sqlc.arg(row_limit)::bigint OFFSET sqlc.arg(row_offset)::bigint;

-- name: GetShippingMethodByReference :one
SELECT * FROM shipping_methods
WHERE seller_id = $1 AND seller_shipping_method_reference = $2;

-- name: MarkShippingMethodsUnsupported :many
UPDATE shipping_methods
SET supported = false
WHERE seller_id = $1 AND id = ANY(sqlc.arg(ids)::uuid[])
RETURNING id;
