-- name: ListOffersInReview :many
-- Offers waiting for an operator's decision, oldest first, with their
-- seller's name and the first approval of those awaiting a second
-- operator, a page after (after_at, after_id). The risk rules' decision
-- is in the offer's document.
SELECT sqlc.embed(o), s.name AS seller_name, a.approved_by, a.approved_email, a.approved_at
FROM offers o
JOIN sellers s ON s.id = o.seller_id
LEFT JOIN offer_approvals a ON a.offer_id = o.id
WHERE o.status = 'pending_review'
  AND (o.created_at, o.id) > (sqlc.arg(after_at)::timestamptz, sqlc.arg(after_id)::uuid)
ORDER BY o.created_at, o.id
LIMIT sqlc.arg(page_size);
