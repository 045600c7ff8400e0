-- name: CreateOrder :execrows
-- An offer has one order: a retried acceptance inserts nothing.
INSERT INTO orders (id, seller_id, offer_id, seller_offer_reference, status, created_by, partner, search_text,
                    agent_name, company_name, full_name, document, offer_created_at)
VALUES ($1, $2, $3, $4, 'created', $5, $6, $7, $8, $9, $10, $11, $12)
ON CONFLICT (offer_id) DO NOTHING;

-- name: GetOrder :one
SELECT * FROM orders WHERE seller_id = $1 AND id = $2;

-- name: GetOrderByOffer :one
SELECT * FROM orders WHERE seller_id = $1 AND offer_id = $2;

-- name: SetOrderStatus :one
-- Moves the order only from the expected status, so a retried transition
-- changes nothing the second time.
UPDATE orders
SET status      = sqlc.arg(to_status),
    canceled_at = CASE WHEN sqlc.arg(to_status)::text = 'canceled' THEN now() ELSE canceled_at END,
    updated_at  = now()
WHERE seller_id = sqlc.arg(seller_id) AND id = sqlc.arg(id) AND status = sqlc.arg(from_status)
RETURNING *;

-- name: SetOrderMetadata :one
UPDATE orders SET metadata = $3, updated_at = now()
WHERE seller_id = $1 AND id = $2
RETURNING *;

-- name: ListOrders :many
-- One page of a seller's orders with the filters of the list endpoints
-- and the portal's status; total_count counts every match, ignoring limit and offset.
SELECT o.id, o.offer_id, o.seller_offer_reference, o.status, o.agent_name, o.company_name, o.full_name,
       o.created_at, count(*) OVER () AS total_count
FROM orders o
WHERE o.seller_id = sqlc.arg(seller_id)
  AND list_filter(o.search_text, o.created_by, o.partner, o.id, o.created_at,
                  sqlc.narg(query)::text, sqlc.arg(created_by)::text[], sqlc.arg(partners_only)::boolean,
                  sqlc.narg(id_gt)::uuid, sqlc.narg(id_gte)::uuid, sqlc.narg(id_lt)::uuid, sqlc.narg(id_lte)::uuid,
                  sqlc.narg(created_at_gt)::timestamptz, sqlc.narg(created_at_gte)::timestamptz,
                  sqlc.narg(created_at_lt)::timestamptz, sqlc.narg(created_at_lte)::timestamptz)
  AND (sqlc.narg(status)::text IS NULL OR o.status = sqlc.narg(status))
ORDER BY
  CASE WHEN NOT sqlc.arg(descending)::boolean THEN o.created_at END,
  CASE WHEN sqlc.arg(descending)::boolean THEN o.created_at END DESC,
  CASE WHEN NOT sqlc.arg(descending)::boolean THEN o.id END,
  CASE WHEN sqlc.arg(descending)::boolean THEN o.id END DESC
LIMIT sqlc.arg(row_limit)::bigint OFFSET sqlc.arg(row_offset)::bigint;

-- name: ListOrdersNewest :many
-- One page of a seller's orders, newest first, with the portal's filters
-- (search or one id, status, before an id): ListOrders without the count
-- of every match (which reads all of a seller's orders), read backwards
-- from orders_seller_created_at_idx.
SELECT o.id, o.offer_id, o.seller_offer_reference, o.status, o.agent_name, o.company_name, o.full_name, o.created_at
FROM orders o
WHERE o.seller_id = sqlc.arg(seller_id)
  AND list_filter(o.search_text, o.created_by, o.partner, o.id, o.created_at,
                  sqlc.narg(query)::text, '{}', false,
                  NULL, sqlc.narg(id_gte)::uuid, sqlc.narg(id_lt)::uuid, sqlc.narg(id_lte)::uuid, NULL, NULL, NULL, NULL)
  AND (sqlc.narg(status)::text IS NULL OR o.status = sqlc.narg(status))
ORDER BY o.created_at DESC, o.id DESC
LIMIT sqlc.arg(row_limit)::bigint;
