-- name: ListUpcomingInstallments :many
-- Installments due or to come, by due date, after the cursor (due date,
-- contract, number); in_collection says a collection of it is under way.
SELECT i.contract_id, i.number, i.due_date, i.currency, i.gross, i.status,
       c.seller_offer_reference, s.name AS seller_name,
       EXISTS (SELECT 1 FROM collection_items ci
               WHERE ci.contract_id = i.contract_id AND ci.installment_number = i.number AND ci.status = 'submitted') AS in_collection
FROM contract_installments i
JOIN rental_contracts c ON c.id = i.contract_id
JOIN sellers s ON s.id = c.seller_id
WHERE i.status IN ('scheduled', 'due')
  AND (i.due_date, i.contract_id, i.number) > (sqlc.arg(after_date)::date, sqlc.arg(after_contract)::uuid, sqlc.arg(after_number)::integer)
ORDER BY i.due_date, i.contract_id, i.number
LIMIT sqlc.arg(page_size);

-- name: ListFailedInstallments :many
-- Failed installments in the order they failed, after the cursor (moment,
-- contract, number), with the reason of their last return.
SELECT i.contract_id, i.number, i.due_date, i.currency, i.gross, i.status_changed_at,
       c.seller_offer_reference, c.status AS contract_status, s.name AS seller_name,
       coalesce(last.reason, '')::text AS reason, coalesce(last.attempt, 0)::integer AS attempts
FROM contract_installments i
JOIN rental_contracts c ON c.id = i.contract_id
JOIN sellers s ON s.id = c.seller_id
LEFT JOIN LATERAL (
    SELECT ci.reason, ci.attempt FROM collection_items ci
    WHERE ci.contract_id = i.contract_id AND ci.installment_number = i.number
    ORDER BY ci.attempt DESC LIMIT 1
) last ON true
WHERE i.status = 'failed'
  AND (i.status_changed_at, i.contract_id, i.number) > (sqlc.arg(after_at)::timestamptz, sqlc.arg(after_contract)::uuid, sqlc.arg(after_number)::integer)
ORDER BY i.status_changed_at, i.contract_id, i.number
LIMIT sqlc.arg(page_size);

-- name: ListContractsInArrears :many
-- Contracts owing failed installments, longest in arrears first, after
-- the cursor (since, contract): what they owe of them, since when, and the
-- reminder stages (contract.payment_reminder) recorded since the arrears
-- began (their contract.in_arrears event; a collection returned again
-- moves its installment's moment on, not the arrears'). The failed
-- installments are few and read from their partial index; the page is
-- cut before the contracts are joined, so that only its contracts are
-- read (by primary key), not every contract to join them all.
WITH arrears AS (
    SELECT f.contract_id, min(f.status_changed_at)::timestamptz AS since, sum(f.gross)::bigint AS overdue, count(*)::integer AS failed
    FROM contract_installments f
    WHERE f.status = 'failed'
    GROUP BY f.contract_id
), page AS (
    SELECT * FROM arrears a
    WHERE (a.since, a.contract_id) > (sqlc.arg(after_at)::timestamptz, sqlc.arg(after_contract)::uuid)
    ORDER BY a.since, a.contract_id
    LIMIT sqlc.arg(page_size)
)
SELECT a.contract_id, a.since, a.overdue, a.failed, c.status, c.currency, c.seller_offer_reference, s.name AS seller_name,
       (SELECT count(*) FROM events e
        WHERE e.seller_id = c.seller_id AND e.object_id = c.id AND e.type = 'contract.payment_reminder'
          AND e.created_at >= coalesce((SELECT max(b.created_at) FROM events b
                                        WHERE b.seller_id = c.seller_id AND b.object_id = c.id AND b.type = 'contract.in_arrears'),
                                       a.since))::integer AS stage
FROM page a
JOIN rental_contracts c ON c.id = a.contract_id
JOIN sellers s ON s.id = c.seller_id
ORDER BY a.since, a.contract_id;

-- name: ListCollectionFilesBefore :many
-- Collection files, newest first, before the cursor (moment, id).
SELECT f.*, r.run_date, r.collection_date
FROM collection_files f
JOIN collection_runs r ON r.id = f.run_id
WHERE (f.created_at, f.id) < (sqlc.arg(before_at)::timestamptz, sqlc.arg(before_id)::uuid)
ORDER BY f.created_at DESC, f.id DESC
LIMIT sqlc.arg(page_size);

-- name: ListPayoutsBefore :many
-- Every seller's payouts, newest first, before the cursor (moment, id),
-- with the message id of the file that paid them.
SELECT p.id, p.seller_id, p.order_id, p.contractual_entity, p.currency, p.financed, p.fee, p.amount, p.status,
       p.file_id, p.execution_date, p.created_at, p.sent_at, s.name AS seller_name,
       coalesce(pf.message_id, '')::text AS message_id
FROM payouts p
JOIN sellers s ON s.id = p.seller_id
LEFT JOIN payout_files pf ON pf.id = p.file_id
WHERE (p.created_at, p.id) < (sqlc.arg(before_at)::timestamptz, sqlc.arg(before_id)::uuid)
ORDER BY p.created_at DESC, p.id DESC
LIMIT sqlc.arg(page_size);

-- name: GetPayoutForOperator :one
SELECT * FROM payouts WHERE id = $1;

-- name: GetOrderSeller :one
-- The seller of an order, for operators who name an order by its id alone.
SELECT seller_id FROM orders WHERE id = $1;

-- name: GetInvoiceSeller :one
-- The seller of an invoice, for operators who name it by its id alone.
SELECT seller_id FROM invoices WHERE id = $1;

-- name: SearchOrders :many
-- Orders of every seller whose search text (reference, company, names,
-- e-mail; lower case) holds the query, through its trigram index, newest
-- first.
SELECT o.id, o.seller_id, o.offer_id, o.seller_offer_reference, o.status, o.company_name, o.full_name, o.created_at,
       s.name AS seller_name
FROM orders o
JOIN sellers s ON s.id = o.seller_id
WHERE o.search_text LIKE '%' || sqlc.arg(query)::text || '%'
ORDER BY o.created_at DESC, o.id DESC
LIMIT sqlc.arg(page_size);

-- name: FindRecord :many
-- What an id names: an offer, order, contract, invoice or payout.
SELECT 'offer'::text AS kind FROM offers WHERE offers.id = sqlc.arg(id)
UNION ALL SELECT 'order' FROM orders WHERE orders.id = sqlc.arg(id)
UNION ALL SELECT 'contract' FROM rental_contracts WHERE rental_contracts.id = sqlc.arg(id)
UNION ALL SELECT 'invoice' FROM invoices WHERE invoices.id = sqlc.arg(id)
UNION ALL SELECT 'payout' FROM payouts WHERE payouts.id = sqlc.arg(id);

-- name: ListEventsOfObjects :many
-- A seller's events about some records, oldest first (the events'
-- index of seller and object), at most 500.
SELECT id, type, object_id, created_at, dispatched_at FROM events
WHERE seller_id = sqlc.arg(seller_id) AND object_id = ANY (sqlc.arg(object_ids)::uuid[])
ORDER BY created_at, id
LIMIT 500;

-- name: ListAttemptsOfEvents :many
-- The delivery attempts of events, with their endpoint's address.
SELECT a.event_id, a.endpoint_id, a.run, a.attempt, a.started_at, a.finished_at, a.outcome, a.status_code,
       a.error_class, w.url AS endpoint_url
FROM webhook_attempts a
JOIN webhook_endpoints w ON w.id = a.endpoint_id
WHERE a.event_id = ANY (sqlc.arg(event_ids)::uuid[])
ORDER BY a.started_at, a.endpoint_id, a.run, a.attempt;

-- name: ListContractCollectionItems :many
-- A contract's collections, oldest first, with the file that carried each.
SELECT ci.id, ci.installment_number, ci.charge_id, ci.attempt, ci.end_to_end_id, ci.amount, ci.sequence_type, ci.status,
       ci.reason, ci.settled_at, ci.created_at, ci.file_id
FROM collection_items ci
WHERE ci.contract_id = $1
ORDER BY ci.created_at, ci.end_to_end_id;

-- name: ListOrderShipments :many
-- An order's shipments, oldest first.
SELECT id, tracking_url, created_at FROM shipments WHERE order_id = $1 ORDER BY created_at, id;
