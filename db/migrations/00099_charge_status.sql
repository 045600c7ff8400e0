-- +goose Up
-- A contract's charges are collected like its installments (issue 24):
-- each is owed (due) until paid, failed when a debit of it came back, and
-- waived when forgiven or written off.
ALTER TABLE contract_charges
    ADD COLUMN status text NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'paid', 'failed', 'waived')),
    ADD COLUMN status_changed_at timestamptz NOT NULL DEFAULT now();

-- +goose Down
ALTER TABLE contract_charges DROP COLUMN status_changed_at, DROP COLUMN status;
