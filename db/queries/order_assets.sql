-- name: CreateOrderAssets :copyfrom
INSERT INTO order_assets (id, order_id, seller_id, position, product_id, title, seller_product_references,
                          requires_serial_number)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8);

-- name: ListOrderAssets :many
SELECT * FROM order_assets WHERE order_id = $1 ORDER BY position;

-- name: ShipOrderAsset :exec
UPDATE order_assets
SET status = 'shipped', serial_number = $2, tracking_url = $3, shipment_id = $4
WHERE id = $1 AND status = 'created';

-- name: SerialNumberShipped :one
SELECT EXISTS (
    SELECT 1 FROM order_assets WHERE seller_id = $1 AND serial_number = $2
) AS shipped;

-- name: LockOrderAssets :many
-- The assets of an order, locked so concurrent shipments see each other.
SELECT * FROM order_assets WHERE order_id = $1 ORDER BY position FOR UPDATE;

-- name: LinkContractAssets :exec
-- The assets a contract rents, by their positions in the order.
UPDATE order_assets SET contract_id = sqlc.arg(contract_id)
WHERE order_id = sqlc.arg(order_id) AND position = ANY (sqlc.arg(positions)::int[]);

-- name: ListContractAssets :many
SELECT * FROM order_assets WHERE contract_id = ANY (sqlc.arg(contract_ids)::uuid[]) ORDER BY contract_id, position;
