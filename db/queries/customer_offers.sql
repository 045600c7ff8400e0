-- name: FindOffer :one
-- An offer by id alone, for callers that prove the offer but not its
-- seller (the shared token, the token exchange, unauthenticated feedback).
SELECT * FROM offers WHERE id = $1;

-- name: SetOfferCheckout :one
-- Stores a change the end customer made while the offer is open; the
-- offer's workflow runs it, one change at a time.
UPDATE offers
SET document = sqlc.arg(document), search_text = sqlc.arg(search_text), updated_at = now()
WHERE seller_id = sqlc.arg(seller_id) AND id = sqlc.arg(id) AND status = 'created'
RETURNING *;

-- name: SubmitOfferCheckout :one
-- Moves an open offer to review with what its customer agreed to, in the
-- transaction that redeems the discount; only while it is still as the
-- customer last read it.
UPDATE offers
SET status = sqlc.arg(to_status), document = sqlc.arg(document), updated_at = now()
WHERE seller_id = sqlc.arg(seller_id) AND id = sqlc.arg(id) AND status = sqlc.arg(from_status)
RETURNING *;

-- name: GetOfferStanding :one
-- What an offer's customer credentials open depends on (offers.Standing),
-- read on every customer bearer request that the cache cannot answer.
SELECT status, (superseded_by_id IS NOT NULL)::boolean AS superseded FROM offers WHERE id = $1;
