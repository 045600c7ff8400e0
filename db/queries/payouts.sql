-- name: OrderPurchaseNet :one
-- What Tenure buys of an order: the net purchase price of its rented
-- lines (their contracts'), in their currency (an order's lines share
-- the seller's).
SELECT coalesce(sum(purchase_net), 0)::bigint AS net, coalesce(min(currency), '')::text AS currency
FROM rental_contracts WHERE order_id = $1;

-- name: CreatePayout :one
-- What a completed order's seller is owed; a retried completion inserts
-- nothing and returns no row.
INSERT INTO payouts (id, seller_id, order_id, contractual_entity, currency, financed, fee, amount)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (order_id) DO NOTHING
RETURNING id;

-- name: LockOwedPayouts :many
-- A contractual entity's owed payouts to sellers with a payout account,
-- oldest first, locked for the batch that pays them (a concurrent batch
-- skips them).
SELECT p.*, s.name AS seller_name, s.payout_iban::text AS payout_iban, s.payout_bic
FROM payouts p
JOIN sellers s ON s.id = p.seller_id
WHERE p.status = 'owed' AND p.contractual_entity = $1 AND s.payout_iban IS NOT NULL
ORDER BY p.created_at, p.id
FOR UPDATE OF p SKIP LOCKED;

-- name: ListOwedPayoutEntities :many
-- The contractual entities that owe payouts.
SELECT DISTINCT contractual_entity FROM payouts WHERE status = 'owed' ORDER BY contractual_entity;

-- name: CountOwedPayoutsWithoutAccount :one
-- Owed payouts a batch skips: their sellers have no payout account.
SELECT count(*) FROM payouts p JOIN sellers s ON s.id = p.seller_id
WHERE p.status = 'owed' AND s.payout_iban IS NULL;

-- name: CreatePayoutFile :exec
INSERT INTO payout_files (id, contractual_entity, run_date, message_id, transfers, total, content)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: MarkPayoutSent :execrows
UPDATE payouts SET status = 'sent', file_id = $2, execution_date = $3, sent_at = now()
WHERE id = $1 AND status = 'owed';

-- name: GetPayout :one
SELECT * FROM payouts WHERE seller_id = $1 AND id = $2;

-- name: GetPayoutFile :one
SELECT * FROM payout_files WHERE id = $1;

-- name: ListPayouts :many
-- One page of a seller's payouts, oldest first; total_count counts every
-- match, ignoring limit and offset.
SELECT p.*, count(*) OVER () AS total_count
FROM payouts p
WHERE p.seller_id = sqlc.arg(seller_id)
  AND (sqlc.narg(status)::text IS NULL OR p.status = sqlc.narg(status))
  AND (sqlc.narg(id_gt)::uuid IS NULL OR p.id > sqlc.narg(id_gt))
ORDER BY p.created_at, p.id
LIMIT sqlc.arg(row_limit)::bigint OFFSET sqlc.arg(row_offset)::bigint;

-- name: SetSellerPayoutAccount :execrows
UPDATE sellers SET payout_iban = $2, payout_bic = $3, updated_at = now() WHERE id = $1;
