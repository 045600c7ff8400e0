-- name: CreateDelivery :exec
-- Dispatching an event twice creates its deliveries once.
INSERT INTO webhook_deliveries (event_id, endpoint_id, seller_id)
VALUES ($1, $2, $3)
ON CONFLICT (event_id, endpoint_id) DO NOTHING;

-- name: ListEventDeliveries :many
SELECT * FROM webhook_deliveries WHERE event_id = $1 ORDER BY endpoint_id;

-- name: LockEventDeliveries :many
SELECT * FROM webhook_deliveries WHERE event_id = $1 ORDER BY endpoint_id FOR UPDATE;

-- name: ListDeliveriesOfEvents :many
SELECT * FROM webhook_deliveries WHERE event_id = ANY(sqlc.arg(event_ids)::uuid[]) ORDER BY event_id, endpoint_id;

-- name: GetDelivery :one
SELECT * FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2;

-- name: RestartDelivery :one
-- A redelivery: a new run of the delivery, pending again.
INSERT INTO webhook_deliveries (event_id, endpoint_id, seller_id)
VALUES ($1, $2, $3)
ON CONFLICT (event_id, endpoint_id) DO UPDATE
SET status = 'pending', run = webhook_deliveries.run + 1, delivered_at = NULL, updated_at = now()
RETURNING *;

-- name: CountDeliveryAttempt :exec
-- Counts a finished attempt of the current run.
UPDATE webhook_deliveries
SET attempts = attempts + 1, last_attempt_at = sqlc.arg(attempted_at), updated_at = now()
WHERE event_id = $1 AND endpoint_id = $2 AND run = sqlc.arg(run);

-- name: SettleDelivery :exec
-- Ends the current run of a pending delivery: delivered, failed or cancelled.
UPDATE webhook_deliveries
SET status = sqlc.arg(status),
    delivered_at = CASE WHEN sqlc.arg(status) = 'delivered' THEN now() ELSE delivered_at END,
    updated_at = now()
WHERE event_id = $1 AND endpoint_id = $2 AND run = sqlc.arg(run) AND status = 'pending';

-- name: CancelPendingDeliveries :execrows
-- An endpoint was disabled or deleted: its pending deliveries stop.
UPDATE webhook_deliveries
SET status = 'cancelled', updated_at = now()
WHERE endpoint_id = $1 AND status = 'pending';

-- name: ListEndpointDeliveries :many
-- A page of an endpoint's deliveries with their events' types, newest
-- first, before the delivery (before_at, before_id), over
-- webhook_deliveries_endpoint_created_idx.
SELECT d.*, ev.type AS event_type
FROM webhook_deliveries d
JOIN events ev ON ev.id = d.event_id
WHERE d.endpoint_id = sqlc.arg(endpoint_id)
  AND (d.created_at, d.event_id) < (sqlc.arg(before_at)::timestamptz, sqlc.arg(before_id)::uuid)
ORDER BY d.created_at DESC, d.event_id DESC
LIMIT sqlc.arg(page_size)::int;
