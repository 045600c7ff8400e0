-- name: CreateIDVSession :one
-- Opens a session unless the offer has a pending one (a concurrent request
-- opened it first): then no row.
INSERT INTO idv_sessions (id, seller_id, offer_id, provider, return_url, link_expires_at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (offer_id) WHERE status = 'pending' DO NOTHING
RETURNING *;

-- name: PendingIDVSession :one
-- The offer's one pending session, if any (see idv_sessions_one_open_key).
SELECT * FROM idv_sessions
WHERE seller_id = $1 AND offer_id = $2 AND status = 'pending';

-- name: ExpireIDVSession :exec
-- Ends a pending session that can no longer be continued.
UPDATE idv_sessions SET status = 'expired' WHERE id = $1 AND status = 'pending';

-- name: LatestIDVSession :one
SELECT * FROM idv_sessions
WHERE seller_id = $1 AND offer_id = $2
ORDER BY created_at DESC, id DESC
LIMIT 1;

-- name: GetIDVSession :one
SELECT * FROM idv_sessions WHERE id = $1;

-- name: DecideIDVSession :one
-- Records a provider's verdict once; no row when the session is unknown
-- or already decided. A session whose link expired may still be decided:
-- the customer may have finished at the provider's just before.
UPDATE idv_sessions
SET status = sqlc.arg(status), provider_reference = sqlc.arg(provider_reference), reason = sqlc.arg(reason),
    decided_at = now()
WHERE id = sqlc.arg(id) AND status IN ('pending', 'expired')
RETURNING *;
