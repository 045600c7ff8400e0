-- name: CreateRentalContract :exec
-- One contract per rented line, in awaiting_delivery: a retried
-- confirmation inserts nothing.
INSERT INTO rental_contracts (id, order_id, seller_id, offer_id, seller_offer_reference, line_position, product_id,
                              quantity, duration_months, monthly_net, monthly_gross, tax_rate, currency, purchase_net)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
ON CONFLICT (order_id, line_position) DO NOTHING;

-- name: GetRentalContract :one
SELECT * FROM rental_contracts WHERE seller_id = $1 AND id = $2;

-- name: GetContractSeller :one
-- The seller of a contract, for operators who name a contract by its id
-- alone.
SELECT seller_id FROM rental_contracts WHERE id = $1;

-- name: LockRentalContract :one
-- The contract a change is made to, locked until its transaction ends.
-- No change alters its key, so the lock leaves other transactions' foreign
-- key checks alone (an invoice of its order billing one of its
-- installments): FOR UPDATE would make them wait, and deadlock a contract
-- falling due with its order's invoice issued by another.
SELECT * FROM rental_contracts WHERE seller_id = $1 AND id = $2 FOR NO KEY UPDATE;

-- name: GetContractRecord :one
-- A contract with the document of its order, which describes its line.
SELECT sqlc.embed(c), o.document AS order_document
FROM rental_contracts c
JOIN orders o ON o.id = c.order_id
WHERE c.seller_id = $1 AND c.id = $2;

-- name: ListContractRecords :many
-- One page of contracts with the filters of the contract list, oldest
-- first: a seller's, or every seller's for operators (seller_id null);
-- total_count counts every match, ignoring limit and offset.
SELECT sqlc.embed(c), o.document AS order_document, count(*) OVER () AS total_count
FROM rental_contracts c
JOIN orders o ON o.id = c.order_id
WHERE (sqlc.narg(seller_id)::uuid IS NULL OR c.seller_id = sqlc.narg(seller_id))
  AND (sqlc.narg(status)::text IS NULL OR c.status = sqlc.narg(status))
  AND (sqlc.narg(order_id)::uuid IS NULL OR c.order_id = sqlc.narg(order_id))
  AND (sqlc.narg(ending_before)::date IS NULL OR c.end_date < sqlc.narg(ending_before))
  AND (sqlc.narg(id_gt)::uuid IS NULL OR c.id > sqlc.narg(id_gt))
ORDER BY c.created_at, c.id
LIMIT sqlc.arg(row_limit)::bigint OFFSET sqlc.arg(row_offset)::bigint;

-- name: ListNewestContractRecords :many
-- One page of a seller's contracts, newest first, older than the contract
-- (before_at, before_id); the first page is before a time to come. Read
-- backwards from rental_contracts_seller_created_at_idx.
SELECT sqlc.embed(c), o.document AS order_document
FROM rental_contracts c
JOIN orders o ON o.id = c.order_id
WHERE c.seller_id = sqlc.arg(seller_id)
  AND (c.created_at, c.id) < (sqlc.arg(before_at)::timestamptz, sqlc.arg(before_id)::uuid)
ORDER BY c.created_at DESC, c.id DESC
LIMIT sqlc.arg(row_limit)::bigint;

-- name: SetContractStatus :one
-- Moves the contract only from the expected status, so a retried change
-- changes nothing the second time; ended_on is set by the moves that end
-- the contract.
UPDATE rental_contracts
SET status     = sqlc.arg(to_status),
    ended_on   = coalesce(sqlc.narg(ended_on)::date, ended_on),
    ended_at   = CASE WHEN sqlc.narg(ended_on)::date IS NULL THEN ended_at ELSE now() END,
    updated_at = now()
WHERE seller_id = sqlc.arg(seller_id) AND id = sqlc.arg(id) AND status = sqlc.arg(from_status)
RETURNING *;

-- name: SetContractRental :exec
-- The rental a legacy row is opened with, computed again from its order
-- line; its assets are linked in the same transaction.
UPDATE rental_contracts
SET monthly_net = $2, monthly_gross = $3, tax_rate = $4, currency = $5, purchase_net = $6, duration_months = $7,
    legacy = false, updated_at = now()
WHERE id = $1;

-- name: SetContractTerm :exec
-- The term's start and the end and notice dates of its current term; a
-- term extension clears the options priced at the last notice.
UPDATE rental_contracts
SET start_date = $2, end_date = $3, notice_date = $4, end_of_term = NULL, updated_at = now()
WHERE id = $1;

-- name: SetContractEndOfTerm :exec
UPDATE rental_contracts SET end_of_term = $2, updated_at = now() WHERE id = $1;

-- name: AddContractExtension :exec
UPDATE rental_contracts SET extensions = extensions || jsonb_build_array(sqlc.arg(extension)::jsonb), updated_at = now()
WHERE id = sqlc.arg(id);

-- name: SetContractClock :exec
UPDATE rental_contracts SET clock_offset_seconds = $2, updated_at = now() WHERE id = $1;

-- name: ListLegacyContracts :many
-- Contracts written before contracts ran, whose workflows the backfill
-- starts, a page after another; their opening clears legacy.
SELECT id, seller_id, seller_offer_reference FROM rental_contracts
WHERE legacy AND id > sqlc.arg(after)
ORDER BY id
LIMIT sqlc.arg(row_limit);

-- name: ListOrderContracts :many
SELECT id, seller_offer_reference FROM rental_contracts WHERE order_id = $1 ORDER BY line_position;

-- name: ListContractsDeliveredBy :many
-- The contracts of an order whose assets are all shipped, the last of them
-- by this shipment: their terms start with it.
SELECT c.id FROM rental_contracts c
WHERE c.order_id = sqlc.arg(order_id)
  AND EXISTS (SELECT 1 FROM order_assets a WHERE a.contract_id = c.id AND a.shipment_id = sqlc.arg(shipment_id)::uuid)
  AND NOT EXISTS (SELECT 1 FROM order_assets a WHERE a.contract_id = c.id AND a.status <> 'shipped')
ORDER BY c.line_position;

-- name: ListContractShipments :many
-- Each asset of a contract with when its shipment was recorded (NULL
-- while it is not shipped).
SELECT a.id, s.created_at AS shipped_at
FROM order_assets a
LEFT JOIN shipments s ON s.id = a.shipment_id
WHERE a.contract_id = $1
ORDER BY a.position;
