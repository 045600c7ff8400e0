-- name: CreateDiscountCode :one
INSERT INTO discount_codes (id, seller_id, code, description, percent_off, amount_off_net, amount_off_gross,
                            currency, valid_from, valid_until, usage_limit, code_digest)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
RETURNING *;

-- name: GetDiscountCode :one
SELECT * FROM discount_codes WHERE seller_id = $1 AND id = $2;

-- name: FindDiscountCode :one
-- The code a customer typed, by its digest: the active one, else the
-- newest deactivated one (so the customer learns it is no longer valid).
SELECT * FROM discount_codes
WHERE seller_id = $1 AND code_digest = $2
ORDER BY active DESC, created_at DESC
LIMIT 1;

-- name: ListDiscountCodes :many
-- One page of a seller's codes in creation order; total_count counts
-- every match.
SELECT sqlc.embed(d), count(*) OVER () AS total_count
FROM discount_codes d
WHERE d.seller_id = $1 AND (sqlc.arg(include_inactive)::boolean OR d.active)
ORDER BY d.created_at, d.id
LIMIT sqlc.arg(row_limit)::bigint OFFSET sqlc.arg(row_offset)::bigint;

-- name: DeactivateDiscountCode :one
-- Deactivating twice keeps the first time.
UPDATE discount_codes
SET active = false, deactivated_at = coalesce(deactivated_at, now())
WHERE seller_id = $1 AND id = $2
RETURNING *;

-- name: InsertDiscountRedemption :execrows
-- Zero rows when the code was already applied to this offer.
INSERT INTO discount_redemptions (discount_code_id, offer_id)
VALUES ($1, $2)
ON CONFLICT DO NOTHING;

-- name: CountDiscountUse :one
-- Counts one more use, only while the code is active, inside its window
-- and below its limit; no row means it cannot be used now.
UPDATE discount_codes
SET times_used = times_used + 1
WHERE id = $1
  AND active
  AND (valid_from IS NULL OR valid_from <= sqlc.arg(now)::timestamptz)
  AND (valid_until IS NULL OR valid_until > sqlc.arg(now)::timestamptz)
  AND (usage_limit IS NULL OR times_used < usage_limit)
RETURNING *;
