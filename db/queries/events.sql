-- name: InsertEvent :exec
-- A retried activity records the same event id again: nothing changes.
-- created_at is the moment of the insert, not of the transaction's start,
-- so the events one transaction records keep their order in the event log
-- (a contract catching up makes several installments due at once).
INSERT INTO events (id, seller_id, type, object_id, endpoint_id, payload, trace_parent, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp())
ON CONFLICT (id) DO NOTHING;

-- name: LockUndispatchedEvent :one
-- Takes an event to dispatch; no row when it is dispatched already or
-- another process is dispatching it.
SELECT * FROM events
WHERE id = $1 AND dispatched_at IS NULL
FOR UPDATE SKIP LOCKED;

-- name: LockUndispatchedEvents :many
-- The relay's batch: undispatched events older than the grace period (by
-- the database's clock), skipping those another process holds.
SELECT * FROM events
WHERE dispatched_at IS NULL
  AND created_at < now() - make_interval(secs => sqlc.arg(grace_seconds)::float8)
ORDER BY created_at
LIMIT sqlc.arg(row_limit)
FOR UPDATE SKIP LOCKED;

-- name: MarkEventDispatched :exec
UPDATE events SET dispatched_at = now() WHERE id = $1;

-- name: GetEvent :one
SELECT * FROM events WHERE id = $1 AND seller_id = $2;

-- name: GetEventByID :one
SELECT * FROM events WHERE id = $1;

-- name: ListEvents :many
-- One page of a seller's events, oldest first. delivery_success=true keeps
-- events whose every delivery is delivered (and that have one);
-- delivery_success=false keeps events with at least one failed delivery.
SELECT e.* FROM events e
WHERE e.seller_id = sqlc.arg(seller_id)
  AND (sqlc.narg(type)::text IS NULL OR e.type = sqlc.narg(type))
  AND (sqlc.narg(object_id)::uuid IS NULL OR e.object_id = sqlc.narg(object_id))
  AND (sqlc.narg(created_at_gt)::timestamptz IS NULL OR e.created_at > sqlc.narg(created_at_gt))
  AND (sqlc.narg(created_at_gte)::timestamptz IS NULL OR e.created_at >= sqlc.narg(created_at_gte))
  AND (sqlc.narg(created_at_lt)::timestamptz IS NULL OR e.created_at < sqlc.narg(created_at_lt))
  AND (sqlc.narg(created_at_lte)::timestamptz IS NULL OR e.created_at <= sqlc.narg(created_at_lte))
  AND (sqlc.narg(delivery_success)::boolean IS NULL
       OR (sqlc.narg(delivery_success)::boolean
           AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status <> 'delivered'))
       OR (NOT sqlc.narg(delivery_success)::boolean
           AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'failed')))
ORDER BY e.created_at, e.id
LIMIT sqlc.arg(row_limit)::bigint OFFSET sqlc.arg(row_offset)::bigint;

-- name: CountEvents :one
-- How many events ListEvents pages through (same filters).
SELECT count(*) FROM events e
WHERE e.seller_id = sqlc.arg(seller_id)
  AND (sqlc.narg(type)::text IS NULL OR e.type = sqlc.narg(type))
  AND (sqlc.narg(object_id)::uuid IS NULL OR e.object_id = sqlc.narg(object_id))
  AND (sqlc.narg(created_at_gt)::timestamptz IS NULL OR e.created_at > sqlc.narg(created_at_gt))
  AND (sqlc.narg(created_at_gte)::timestamptz IS NULL OR e.created_at >= sqlc.narg(created_at_gte))
  AND (sqlc.narg(created_at_lt)::timestamptz IS NULL OR e.created_at < sqlc.narg(created_at_lt))
  AND (sqlc.narg(created_at_lte)::timestamptz IS NULL OR e.created_at <= sqlc.narg(created_at_lte))
  AND (sqlc.narg(delivery_success)::boolean IS NULL
       OR (sqlc.narg(delivery_success)::boolean
           AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status <> 'delivered'))
       OR (NOT sqlc.narg(delivery_success)::boolean
           AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'failed')));

-- name: CountUndispatchedEvents :one
-- Events committed whose deliveries nobody started yet: the relay's work
-- (over the partial index of undispatched events).
SELECT count(*) FROM events WHERE dispatched_at IS NULL;

-- name: ListEventsBefore :many
-- A page of a seller's event log, newest first, before the event
-- (before_at, before_id), over events_seller_created_idx.
SELECT * FROM events
WHERE seller_id = sqlc.arg(seller_id)
  AND (created_at, id) < (sqlc.arg(before_at)::timestamptz, sqlc.arg(before_id)::uuid)
ORDER BY created_at DESC, id DESC
LIMIT sqlc.arg(page_size)::int;
