package collections

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Run is a collection run as planned: its date, the collection date it
// asks for, and how many items this call submitted (0 when a repeated run
// found them submitted already).
type Run struct {
	ID             uuid.UUID
	RunDate        civil.Date
	CollectionDate civil.Date
	Submitted      int
}

// submitOwed picks what is owed on the collection date and submits it, in
// one statement: every installment and charge due by then, or failed with
// a reason that allows presenting it again, whose order's mandate was
// signed by then, and that has no open item (the open-item indexes refuse
// a second one, so a repeated run inserts nothing). The attempt counts the
// earlier runs' items; a mandate's first collection is FRST until one of
// its items was submitted or paid in an earlier run. The end-to-end id
// is sepa.CollectionID's: 32 hexadecimal digits naming what is collected
// (a charge's id; for an installment, the MD5 of its contract id and
// number, as installments have no id of their own) and the attempt, so
// sepa.ParseCollectionID reads it back and each attempt has its own. It
// reads the mandates table by hand, as sqlc's schema (the migrations)
// gets it only with 00097.
const submitOwed = `
WITH owed AS (
    SELECT i.contract_id, i.number AS installment_number, NULL::uuid AS charge_id, i.gross AS amount, i.status
    FROM contract_installments i
    WHERE i.status IN ('due', 'failed') AND i.due_date <= $2
    UNION ALL
    SELECT c.contract_id, NULL::integer, c.id, c.gross, c.status
    FROM contract_charges c
    WHERE c.status IN ('due', 'failed') AND c.due_date <= $2 AND c.gross > 0
), picked AS (
    SELECT o.contract_id, o.installment_number, o.charge_id, o.amount,
           m.id AS mandate_id, m.contractual_entity, m.creditor_id, m.scheme,
           1 + (SELECT count(*) FROM collection_items p
                WHERE p.contract_id = o.contract_id AND p.installment_number IS NOT DISTINCT FROM o.installment_number
                  AND p.charge_id IS NOT DISTINCT FROM o.charge_id AND p.run_id <> $1) AS attempt,
           CASE WHEN EXISTS (SELECT 1 FROM collection_items p
                             WHERE p.mandate_id = m.id AND p.status IN ('submitted', 'paid') AND p.run_id <> $1)
                THEN 'RCUR' ELSE 'FRST' END AS sequence_type
    FROM owed o
    JOIN rental_contracts rc ON rc.id = o.contract_id
    JOIN orders ord ON ord.id = rc.order_id
    JOIN mandates m ON m.offer_id = ord.offer_id AND m.signed_at IS NOT NULL AND m.signed_at::date <= $2
    LEFT JOIN LATERAL (
        SELECT p.status, p.reason FROM collection_items p
        WHERE p.contract_id = o.contract_id AND p.installment_number IS NOT DISTINCT FROM o.installment_number
          AND p.charge_id IS NOT DISTINCT FROM o.charge_id
        ORDER BY p.attempt DESC LIMIT 1
    ) last ON true
    WHERE o.status = 'due' OR (last.status = 'returned' AND last.reason = ANY ($3::text[]))
)
INSERT INTO collection_items (id, run_id, contract_id, installment_number, charge_id, mandate_id, contractual_entity,
    creditor_id, scheme, attempt, end_to_end_id, amount, sequence_type)
SELECT gen_random_uuid(), $1, contract_id, installment_number, charge_id, mandate_id, contractual_entity,
    creditor_id, scheme, attempt,
    upper(coalesce(replace(charge_id::text, '-', ''), md5(contract_id::text || '/' || installment_number))) || '-' || attempt,
    amount, sequence_type
FROM picked
WHERE attempt <= 99
ON CONFLICT DO NOTHING
RETURNING id, contract_id, amount`

// Submit plans the run of a date: it opens the run and submits every
// owed installment and charge as an item, each with its journal, in one
// transaction, so a crash leaves all of it or none. A repeated run
// submits nothing new for what is already open.
func (r *Runner) Submit(ctx context.Context, runDate civil.Date) (Run, error) {
	run := Run{ID: RunID(runDate), RunDate: runDate, CollectionDate: CollectionDateOf(runDate, r.BankDays)}
	err := pgx.BeginFunc(ctx, r.Store.Pool, func(tx pgx.Tx) error {
		q := r.Store.Queries.WithTx(tx)
		row, err := q.OpenCollectionRun(ctx, dbgen.OpenCollectionRunParams{
			ID: run.ID, RunDate: runDate.Midnight(time.UTC), CollectionDate: run.CollectionDate.Midnight(time.UTC),
		})
		if err != nil {
			return err
		}
		// A run resumed on another day keeps the date it planned with.
		run.CollectionDate = civil.DateOf(row.CollectionDate)
		rows, err := tx.Query(ctx, submitOwed, run.ID, run.CollectionDate.Midnight(time.UTC), sepa.RepresentableReasons())
		if err != nil {
			return err
		}
		submitted, err := pgx.CollectRows(rows, pgx.RowToStructByPos[submittedItem])
		if err != nil {
			return err
		}
		for _, it := range submitted {
			if err := postSubmitted(ctx, q, it); err != nil {
				return err
			}
		}
		run.Submitted = len(submitted)
		return nil
	})
	return run, err
}

// submittedItem is an item a run just submitted, for its journal.
type submittedItem struct {
	ID         uuid.UUID
	ContractID uuid.UUID
	Amount     int64
}
