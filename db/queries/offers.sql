-- name: CreateOffer :exec
-- A retried creation finds its row and inserts nothing.
INSERT INTO offers (id, seller_id, seller_offer_reference, status, sales_channel, created_by, partner,
                    search_text, document, exit_redirect, success_redirect, expires_at)
VALUES ($1, $2, $3, 'created', $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (id) DO NOTHING;

-- name: GetOffer :one
SELECT * FROM offers WHERE seller_id = $1 AND id = $2;

-- name: GetOfferByReference :one
-- A reference may have been used by earlier, inactive offers: the newest wins.
SELECT * FROM offers
WHERE seller_id = $1 AND seller_offer_reference = $2
ORDER BY created_at DESC, id DESC
LIMIT 1;

-- name: OfferBuildingContext :one
-- What building an offer reads of its seller, in one round trip: the
-- currency, and the active offer holding the reference (none or one).
SELECT s.currency, ARRAY(
    SELECT o.id FROM offers o
    WHERE o.seller_id = s.id AND o.seller_offer_reference = sqlc.arg(reference)
      AND o.status IN ('created', 'pending_review', 'accepted')
    LIMIT 1
)::uuid[] AS reference_holders
FROM sellers s
WHERE s.id = sqlc.arg(seller_id);

-- name: SetOfferStatus :one
-- Moves the offer only from the expected status, so a retried transition
-- changes nothing the second time.
UPDATE offers
SET status = sqlc.arg(to_status), superseded_by_id = coalesce(sqlc.narg(superseded_by_id), superseded_by_id), updated_at = now()
WHERE seller_id = sqlc.arg(seller_id) AND id = sqlc.arg(id) AND status = sqlc.arg(from_status)
RETURNING *;

-- name: ListOffers :many
-- One page of a seller's offers with the filters of the list endpoints;
-- total_count counts every match, ignoring limit and offset.
SELECT sqlc.embed(o), count(*) OVER () AS total_count
FROM offers o
WHERE o.seller_id = sqlc.arg(seller_id)
  AND list_filter(o.search_text, o.created_by, o.partner, o.id, o.created_at,
                  sqlc.narg(query)::text, sqlc.arg(created_by)::text[], sqlc.arg(partners_only)::boolean,
                  sqlc.narg(id_gt)::uuid, sqlc.narg(id_gte)::uuid, sqlc.narg(id_lt)::uuid, sqlc.narg(id_lte)::uuid,
                  sqlc.narg(created_at_gt)::timestamptz, sqlc.narg(created_at_gte)::timestamptz,
                  sqlc.narg(created_at_lt)::timestamptz, sqlc.narg(created_at_lte)::timestamptz)
ORDER BY
  CASE WHEN sqlc.arg(sort_by)::text = 'status' AND NOT sqlc.arg(descending)::boolean THEN o.status END,
  CASE WHEN sqlc.arg(sort_by)::text = 'status' AND sqlc.arg(descending)::boolean THEN o.status END DESC,
  CASE WHEN sqlc.arg(sort_by)::text = 'expires_at' AND NOT sqlc.arg(descending)::boolean THEN o.expires_at END,
  CASE WHEN sqlc.arg(sort_by)::text = 'expires_at' AND sqlc.arg(descending)::boolean THEN o.expires_at END DESC,
  CASE WHEN NOT sqlc.arg(descending)::boolean THEN o.created_at END,
  CASE WHEN sqlc.arg(descending)::boolean THEN o.created_at END DESC,
  CASE WHEN NOT sqlc.arg(descending)::boolean THEN o.id END,
  CASE WHEN sqlc.arg(descending)::boolean THEN o.id END DESC
LIMIT sqlc.arg(row_limit)::bigint OFFSET sqlc.arg(row_offset)::bigint;

-- name: ListOffersNewest :many
-- One page of a seller's offers, newest first, with the filters of the
-- list endpoints, for the portal's list: ListOffers without the count of
-- every match (which reads all of a seller's offers), read backwards
-- from offers_seller_created_at_idx.
SELECT * FROM offers o
WHERE o.seller_id = sqlc.arg(seller_id)
  AND list_filter(o.search_text, o.created_by, o.partner, o.id, o.created_at,
                  sqlc.narg(query)::text, sqlc.arg(created_by)::text[], false,
                  NULL, NULL, sqlc.narg(id_lt)::uuid, NULL, NULL, NULL, NULL, NULL)
ORDER BY o.created_at DESC, o.id DESC
LIMIT sqlc.arg(row_limit)::bigint;

-- name: GetOfferForOperator :one
-- An operator's tools (tenure offers decide) name offers by id alone.
SELECT * FROM offers WHERE id = $1;
