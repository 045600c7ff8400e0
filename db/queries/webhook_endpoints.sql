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
