-- name: RecordDiscountFailure :one
-- Records an attempt as failed before its code is checked, and purges
-- every failure that has left the window.
WITH purged AS (
    DELETE FROM discount_code_failures WHERE failed_at <= sqlc.arg(window_start)::timestamptz
)
INSERT INTO discount_code_failures (offer_id, address, failed_at)
VALUES (sqlc.arg(offer_id), sqlc.arg(address), sqlc.arg(failed_at))
RETURNING id;

-- name: ListRecentDiscountFailures :many
-- The failures within the window against an offer or an address, but the
-- one of id, newest first; a budget bounds how many there are.
SELECT offer_id = sqlc.arg(offer_id)::uuid AS of_offer, address = sqlc.arg(address)::text AS of_address, failed_at
FROM discount_code_failures
WHERE failed_at > sqlc.arg(window_start)::timestamptz AND id <> sqlc.arg(id)
  AND (offer_id = sqlc.arg(offer_id)::uuid OR address = sqlc.arg(address)::text)
ORDER BY failed_at DESC;

-- name: DeleteDiscountFailure :exec
-- Gives an attempt back: its code applied, or its budget refused it.
DELETE FROM discount_code_failures WHERE id = $1;

-- name: ReportDiscountLockout :execrows
-- Notes that an offer's attempts were refused; one row when its seller
-- was not told so within the window (since window_start), none otherwise.
INSERT INTO discount_code_lockouts (offer_id, reported_at)
VALUES (sqlc.arg(offer_id), sqlc.arg(reported_at))
ON CONFLICT (offer_id) DO UPDATE SET reported_at = excluded.reported_at
WHERE discount_code_lockouts.reported_at <= sqlc.arg(window_start)::timestamptz;
