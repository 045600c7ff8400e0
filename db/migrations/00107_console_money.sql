-- +goose Up
-- The console's money pages (issue 25): keyset-paginated lists for
-- operators over every seller, each read in its order from an index.

-- Installments due and to come, by due date.
CREATE INDEX contract_installments_upcoming_idx ON contract_installments (due_date, contract_id, number)
    WHERE status IN ('scheduled', 'due');
-- Failed installments, in the order they failed; the arrears list groups
-- them by contract.
CREATE INDEX contract_installments_failed_idx ON contract_installments (status_changed_at, contract_id, number)
    WHERE status = 'failed';
-- Collection files and payouts, newest first.
CREATE INDEX collection_files_created_at_idx ON collection_files (created_at, id);
CREATE INDEX payouts_created_at_idx ON payouts (created_at, id);

-- +goose Down
DROP INDEX payouts_created_at_idx;
DROP INDEX collection_files_created_at_idx;
DROP INDEX contract_installments_failed_idx;
DROP INDEX contract_installments_upcoming_idx;
