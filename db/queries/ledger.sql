-- name: CreateLedgerJournal :one
-- A journal once per key: a retried cause gets no row back and posts no
-- entries.
INSERT INTO ledger_journals (id, key, kind, currency)
VALUES ($1, $2, $3, $4)
ON CONFLICT (key) DO NOTHING
RETURNING id;

-- name: CreateLedgerEntries :exec
-- A journal's entries in one statement; uuid.Nil scopes an entry to no
-- contract or seller.
INSERT INTO ledger_entries (journal_id, line, account, contract_id, seller_id, amount)
SELECT sqlc.arg(journal_id)::uuid, e.line, e.account,
       nullif(e.contract_id, '00000000-0000-0000-0000-000000000000'::uuid),
       nullif(e.seller_id, '00000000-0000-0000-0000-000000000000'::uuid), e.amount
FROM (SELECT unnest(sqlc.arg(lines)::int[]) AS line, unnest(sqlc.arg(accounts)::text[]) AS account,
             unnest(sqlc.arg(contract_ids)::uuid[]) AS contract_id, unnest(sqlc.arg(seller_ids)::uuid[]) AS seller_id,
             unnest(sqlc.arg(amounts)::bigint[]) AS amount) e;

-- name: LedgerBalanceOf :one
-- The balance of accounts, debits positive, for a contract or a seller (or
-- both left nil for the whole book).
SELECT coalesce(sum(e.amount), 0)::bigint
FROM ledger_entries e
WHERE e.account = ANY (sqlc.arg(accounts)::text[])
  AND (sqlc.narg(contract_id)::uuid IS NULL OR e.contract_id = sqlc.narg(contract_id))
  AND (sqlc.narg(seller_id)::uuid IS NULL OR e.seller_id = sqlc.narg(seller_id));

-- name: LedgerUnbalancedCurrencies :many
-- The currencies whose entries do not sum to zero: none in a sound book.
SELECT j.currency, sum(e.amount)::bigint AS total
FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
GROUP BY j.currency
HAVING sum(e.amount) <> 0;

-- name: LedgerReceivableMismatches :many
-- The contracts whose receivable (invoiced and in collection) is not the
-- gross of what they owe: their due and failed installments and charges.
WITH owed AS (
    SELECT contract_id, sum(gross)::bigint AS gross FROM (
        SELECT contract_id, gross FROM contract_installments WHERE status IN ('due', 'failed')
        UNION ALL
        SELECT contract_id, gross FROM contract_charges WHERE status IN ('due', 'failed')
    ) o GROUP BY contract_id
), booked AS (
    SELECT contract_id, sum(amount)::bigint AS amount FROM ledger_entries
    WHERE contract_id IS NOT NULL AND account = ANY (sqlc.arg(receivable_accounts)::text[])
    GROUP BY contract_id
)
SELECT coalesce(o.contract_id, b.contract_id)::uuid AS contract_id,
       coalesce(o.gross, 0)::bigint AS owed, coalesce(b.amount, 0)::bigint AS booked
FROM owed o FULL JOIN booked b ON b.contract_id = o.contract_id
WHERE coalesce(o.gross, 0) <> coalesce(b.amount, 0);
