-- name: OpenCollectionRun :one
-- The run of a date: a repeated or resumed run finds the row its first
-- start wrote.
INSERT INTO collection_runs (id, run_date, collection_date)
VALUES ($1, $2, $3)
ON CONFLICT (run_date) DO UPDATE SET run_date = EXCLUDED.run_date
RETURNING *;

-- name: GetCollectionRun :one
SELECT * FROM collection_runs WHERE id = $1;

-- name: FinishCollectionRun :exec
UPDATE collection_runs SET status = 'written', finished_at = coalesce(finished_at, now()) WHERE id = $1;

-- name: ListCollectionRunBlocks :many
-- A run's payment information blocks with their totals, in file order:
-- the plan its files are written by.
SELECT contractual_entity, creditor_id, scheme, sequence_type, count(*)::integer AS count, sum(amount)::bigint AS sum
FROM collection_items
WHERE run_id = $1
GROUP BY contractual_entity, creditor_id, scheme, sequence_type
ORDER BY contractual_entity, creditor_id, scheme, sequence_type;

-- name: SaveCollectionFile :one
-- A rewritten file (a resumed run) replaces its row's blob figures.
INSERT INTO collection_files (id, run_id, contractual_entity, creditor_id, scheme, message_id, sequence_types, nb_of_txs, ctrl_sum, blob_key, size, sha256)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
ON CONFLICT (id) DO UPDATE SET size = EXCLUDED.size, sha256 = EXCLUDED.sha256, nb_of_txs = EXCLUDED.nb_of_txs, ctrl_sum = EXCLUDED.ctrl_sum
RETURNING *;

-- name: SetCollectionItemsFile :execrows
UPDATE collection_items SET file_id = sqlc.arg(file_id)
WHERE run_id = sqlc.arg(run_id) AND contractual_entity = sqlc.arg(contractual_entity)
  AND creditor_id = sqlc.arg(creditor_id) AND scheme = sqlc.arg(scheme);

-- name: ListCollectionFiles :many
SELECT f.*, r.run_date, r.collection_date FROM collection_files f JOIN collection_runs r ON r.id = f.run_id
ORDER BY f.created_at DESC, f.id LIMIT $1;

-- name: GetCollectionFile :one
SELECT * FROM collection_files WHERE id = $1;

-- name: ListCollectionItems :many
SELECT * FROM collection_items WHERE contract_id = $1 ORDER BY created_at, end_to_end_id;

-- name: SettleCollectionItem :execrows
-- Only a submitted item is settled: a second import changes no row.
UPDATE collection_items SET status = 'paid', settled_at = sqlc.arg(settled_at)
WHERE id = sqlc.arg(id) AND status = 'submitted';

-- name: ReturnCollectionItem :execrows
-- A submitted or paid item is returned once: a second import changes no
-- row.
UPDATE collection_items SET status = 'returned', reason = sqlc.arg(reason), settled_at = sqlc.arg(settled_at)
WHERE id = sqlc.arg(id) AND status IN ('submitted', 'paid');

-- name: LockCollectionItem :one
-- An import settles or returns an item under its lock, so two imports of
-- one file cannot both move it.
SELECT * FROM collection_items WHERE end_to_end_id = $1 FOR UPDATE;

-- name: GetCollectionItem :one
SELECT * FROM collection_items WHERE end_to_end_id = $1;

-- name: CountFailedInstallments :one
-- A contract is in arrears while one of its installments is failed.
SELECT count(*) FROM contract_installments WHERE contract_id = $1 AND status = 'failed';

-- name: SumFailedInstallments :one
-- What a contract in arrears owes of its failed installments, in cents.
SELECT coalesce(sum(gross), 0)::bigint FROM contract_installments WHERE contract_id = $1 AND status = 'failed';

-- name: ListOpenCollectionInstallments :many
-- The installments of a contract whose collection is under way.
SELECT installment_number::integer FROM collection_items
WHERE contract_id = $1 AND status = 'submitted' AND installment_number IS NOT NULL;

-- name: SetChargeStatus :execrows
-- Moves a charge only from one of the expected statuses: a retried move
-- changes no row.
UPDATE contract_charges SET status = sqlc.arg(to_status), status_changed_at = now()
WHERE id = sqlc.arg(id) AND status = ANY (sqlc.arg(from_statuses)::text[]);

-- name: WaiveOwedCharges :many
-- Waives a contract's owed charges, answering their gross.
UPDATE contract_charges SET status = 'waived', status_changed_at = now()
WHERE contract_id = $1 AND status IN ('due', 'failed')
RETURNING gross;

-- name: OldestOpenCollectionItem :one
-- The contract's collection under way that was submitted first: what the
-- sandbox's mark_installment_paid and mark_installment_failed settle.
SELECT * FROM collection_items WHERE contract_id = $1 AND status = 'submitted'
ORDER BY created_at, end_to_end_id LIMIT 1;

-- name: SubmitOwed :many
-- Submits, for a run, every installment and charge owed on its collection
-- date: due by then, or failed with a last return whose reason allows
-- presenting it again; whose order's mandate was signed by then; with no
-- open item (the open-item indexes refuse a second one, so a repeated run
-- inserts nothing). The attempt counts the earlier runs' items; a
-- mandate's collection is FRST until one of its items was submitted or
-- paid in an earlier run. The end-to-end id is sepa.CollectionID's: 32
-- hexadecimal digits naming what is collected (a charge's id; an
-- installment, which has no id, by the MD5 of its contract id and number)
-- and the attempt.
-- What earlier runs did is read set-wise, in one pass over the items of
-- the owed contracts and mandates: a lookup per owed row would read the
-- table this statement fills, and where the statistics call it small the
-- planner makes each lookup a sequential scan that also visits every row
-- inserted so far, so a run's cost grew with the square of its items
-- (decision 0285).
WITH owed AS MATERIALIZED (
    SELECT o.contract_id, o.installment_number, o.charge_id, o.amount, o.status,
           m.id AS mandate_id, m.contractual_entity, m.creditor_id, m.scheme
    FROM (
        SELECT i.contract_id, i.number AS installment_number, NULL::uuid AS charge_id, i.gross AS amount, i.status
        FROM contract_installments i
        WHERE i.status IN ('due', 'failed') AND i.due_date <= sqlc.arg(collection_date)
        UNION ALL
        SELECT c.contract_id, NULL::integer, c.id, c.gross, c.status
        FROM contract_charges c
        WHERE c.status IN ('due', 'failed') AND c.due_date <= sqlc.arg(collection_date) AND c.gross > 0
    ) o
    JOIN rental_contracts rc ON rc.id = o.contract_id
    JOIN orders ord ON ord.id = rc.order_id
    JOIN mandates m ON m.offer_id = ord.offer_id AND m.signed_at IS NOT NULL AND m.signed_at::date <= sqlc.arg(collection_date)
), earlier AS MATERIALIZED (
    -- Per installment or charge, its earlier runs' items and its last
    -- item, of any run.
    SELECT p.contract_id, p.installment_number, p.charge_id,
           count(*) FILTER (WHERE p.run_id <> sqlc.arg(run_id)) AS attempts,
           (array_agg(p.status ORDER BY p.attempt DESC))[1] AS last_status,
           (array_agg(p.reason ORDER BY p.attempt DESC))[1] AS last_reason
    FROM collection_items p
    WHERE p.contract_id IN (SELECT contract_id FROM owed)
    GROUP BY p.contract_id, p.installment_number, p.charge_id
), recurring AS MATERIALIZED (
    SELECT DISTINCT p.mandate_id
    FROM collection_items p
    WHERE p.mandate_id IN (SELECT mandate_id FROM owed)
      AND p.status IN ('submitted', 'paid') AND p.run_id <> sqlc.arg(run_id)
), picked AS (
    SELECT o.contract_id, o.installment_number, o.charge_id, o.amount,
           o.mandate_id, o.contractual_entity, o.creditor_id, o.scheme,
           1 + coalesce(e.attempts, 0) AS attempt,
           CASE WHEN r.mandate_id IS NULL THEN 'FRST' ELSE 'RCUR' END AS sequence_type
    FROM owed o
    LEFT JOIN earlier e ON e.contract_id = o.contract_id
        AND e.installment_number IS NOT DISTINCT FROM o.installment_number
        AND e.charge_id IS NOT DISTINCT FROM o.charge_id
    LEFT JOIN recurring r ON r.mandate_id = o.mandate_id
    WHERE o.status = 'due' OR (e.last_status = 'returned' AND e.last_reason = ANY (sqlc.arg(represent_reasons)::text[]))
)
INSERT INTO collection_items (id, run_id, contract_id, installment_number, charge_id, mandate_id, contractual_entity,
    creditor_id, scheme, attempt, end_to_end_id, amount, sequence_type)
SELECT gen_random_uuid(), sqlc.arg(run_id), contract_id, installment_number, charge_id, mandate_id, contractual_entity,
    creditor_id, scheme, attempt,
    upper(coalesce(replace(charge_id::text, '-', ''), md5(contract_id::text || '/' || installment_number))) || '-' || attempt,
    amount, sequence_type
FROM picked
WHERE attempt <= 99
ON CONFLICT DO NOTHING
RETURNING id, contract_id, amount;
