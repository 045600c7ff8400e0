-- name: CreateIDVSession :one
INSERT INTO idv_sessions (id, seller_id, offer_id, provider, return_url, link_expires_at)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING *;

-- name: LatestIDVSession :one
SELECT * FROM idv_sessions
WHERE seller_id = $1 AND offer_id = $2
ORDER BY created_at DESC, id DESC
LIMIT 1;

-- name: GetIDVSession :one
SELECT * FROM idv_sessions WHERE id = $1;

-- name: DecideIDVSession :one
-- Records a provider's verdict once; no row when the session is unknown
-- or already decided.
UPDATE idv_sessions
SET status = sqlc.arg(status), provider_reference = sqlc.arg(provider_reference), reason = sqlc.arg(reason),
    decided_at = now()
WHERE id = sqlc.arg(id) AND status = 'pending'
RETURNING *;
