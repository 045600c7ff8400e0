-- name: CreateWebhookEndpoint :one
INSERT INTO webhook_endpoints (id, seller_id, url, events, description, secret)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING *;

-- name: GetWebhookEndpoint :one
-- A seller's endpoint, unless deleted.
SELECT * FROM webhook_endpoints
WHERE id = $1 AND seller_id = $2 AND deleted_at IS NULL;

-- name: GetWebhookEndpointByID :one
-- Any endpoint, deleted ones included, for the delivery machinery.
SELECT * FROM webhook_endpoints WHERE id = $1;

-- name: ListWebhookEndpoints :many
SELECT * FROM webhook_endpoints
WHERE seller_id = $1 AND deleted_at IS NULL
ORDER BY id;

-- name: CountWebhookEndpoints :one
SELECT count(*) FROM webhook_endpoints
WHERE seller_id = $1 AND deleted_at IS NULL;

-- name: UpdateWebhookEndpoint :one
-- NULL leaves a field as it is. enabled=true clears a disablement,
-- enabled=false disables with the given reason (kept when already disabled).
UPDATE webhook_endpoints
SET url             = COALESCE(sqlc.narg(url), url),
    events          = COALESCE(sqlc.narg(events)::text[], events),
    description     = COALESCE(sqlc.narg(description), description),
    disabled_at     = CASE WHEN sqlc.narg(enabled)::boolean IS NULL THEN disabled_at
                           WHEN sqlc.narg(enabled)::boolean THEN NULL
                           ELSE COALESCE(disabled_at, now()) END,
    disabled_reason = CASE WHEN sqlc.narg(enabled)::boolean IS NULL THEN disabled_reason
                           WHEN sqlc.narg(enabled)::boolean THEN NULL
                           ELSE COALESCE(disabled_reason, sqlc.narg(disabled_reason)) END,
    updated_at      = now()
WHERE id = sqlc.arg(id) AND seller_id = sqlc.arg(seller_id) AND deleted_at IS NULL
RETURNING *;

-- name: RotateWebhookEndpointSecret :one
-- The current secret becomes the previous one until previous_expires_at.
UPDATE webhook_endpoints
SET previous_secret            = secret,
    previous_secret_expires_at = sqlc.arg(previous_expires_at),
    secret                     = sqlc.arg(secret),
    updated_at                 = now()
WHERE id = sqlc.arg(id) AND seller_id = sqlc.arg(seller_id) AND deleted_at IS NULL
RETURNING *;

-- name: DeleteWebhookEndpoint :one
-- Forgets the secrets; the row stays for the delivery history.
UPDATE webhook_endpoints
SET deleted_at = now(), secret = '', previous_secret = NULL, previous_secret_expires_at = NULL, updated_at = now()
WHERE id = $1 AND seller_id = $2 AND deleted_at IS NULL
RETURNING id;

-- name: DisableWebhookEndpoint :execrows
-- Disables an enabled endpoint (410 Gone from its receiver).
UPDATE webhook_endpoints
SET disabled_at = now(), disabled_reason = $2, updated_at = now()
WHERE id = $1 AND disabled_at IS NULL AND deleted_at IS NULL;

-- name: ListSubscribedEndpoints :many
-- The enabled endpoints of a seller that receive events of a type.
SELECT * FROM webhook_endpoints
WHERE seller_id = $1 AND deleted_at IS NULL AND disabled_at IS NULL
  AND (cardinality(events) = 0 OR sqlc.arg(type)::text = ANY(events))
ORDER BY id;

-- name: ListWebhookHealth :many
-- Every seller's endpoints by their failure rate since a moment, worst
-- first: per mille of the finished attempts that failed (an interrupted
-- attempt is the worker's, not the endpoint's), with the last failure in
-- that window; a page after (after_permille, after_id). Each endpoint's
-- attempts are read over webhook_attempts_endpoint_started_idx.
WITH health AS (
    SELECT e.id, e.seller_id, s.name AS seller_name, e.url, e.disabled_at, e.disabled_reason,
           a.finished, a.failures,
           (CASE WHEN a.finished = 0 THEN 0 ELSE a.failures * 1000 / a.finished END)::int AS failure_permille
    FROM webhook_endpoints e
    JOIN sellers s ON s.id = e.seller_id
    CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE wa.outcome IN ('delivered', 'failed', 'gone')) AS finished,
               count(*) FILTER (WHERE wa.outcome IN ('failed', 'gone')) AS failures
        FROM webhook_attempts wa
        WHERE wa.endpoint_id = e.id AND wa.started_at >= sqlc.arg(since)::timestamptz
    ) a
    WHERE e.deleted_at IS NULL
      AND (NOT sqlc.arg(disabled_only)::boolean OR e.disabled_at IS NOT NULL)
)
SELECT h.id, h.seller_id, h.seller_name, h.url, h.disabled_at, h.disabled_reason,
       h.finished, h.failures, h.failure_permille,
       last.finished_at AS last_failure_at, last.status_code AS last_status_code,
       last.error_class AS last_error_class, last.response_excerpt AS last_response_excerpt
FROM health h
LEFT JOIN LATERAL (
    SELECT wa.finished_at, wa.status_code, wa.error_class, wa.response_excerpt
    FROM webhook_attempts wa
    WHERE wa.endpoint_id = h.id AND wa.started_at >= sqlc.arg(since)::timestamptz
      AND wa.outcome IN ('failed', 'gone')
    ORDER BY wa.started_at DESC
    LIMIT 1
) last ON true
WHERE (h.failure_permille, h.id) < (sqlc.arg(after_permille)::int, sqlc.arg(after_id)::uuid)
ORDER BY h.failure_permille DESC, h.id DESC
LIMIT sqlc.arg(page_size)::int;
