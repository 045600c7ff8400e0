-- name: CreateShipment :exec
INSERT INTO shipments (id, order_id, seller_id, tracking_url, metadata)
VALUES ($1, $2, $3, $4, $5);

-- name: ListTrackingURLs :many
-- The distinct tracking links of an order's shipments, oldest first.
SELECT tracking_url FROM shipments
WHERE order_id = $1 AND tracking_url <> ''
GROUP BY tracking_url
ORDER BY min(created_at);

-- name: ShipmentExists :one
SELECT EXISTS (SELECT 1 FROM shipments WHERE id = $1) AS found;

-- name: GetShipment :one
SELECT * FROM shipments WHERE id = $1;
