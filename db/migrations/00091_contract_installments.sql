-- +goose Up
-- A contract's schedule: one installment a month of its term and of its
-- extensions, paid in advance (due on its period's first day), fixed when
-- the term starts and only ever grown. Its workflow moves scheduled
-- installments to due on their due date; collections (issue 24) move them
-- on to paid or failed, and a termination waives those it settles.
CREATE TABLE contract_installments (
    contract_id       uuid NOT NULL REFERENCES rental_contracts (id) ON DELETE CASCADE,
    number            integer NOT NULL,
    period_from       date NOT NULL,
    period_to         date NOT NULL,
    due_date          date NOT NULL,
    currency          text NOT NULL,
    net               bigint NOT NULL,
    gross             bigint NOT NULL,
    tax_rate          bigint NOT NULL,
    status            text NOT NULL DEFAULT 'scheduled',
    status_changed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (contract_id, number),
    CHECK (net >= 0 AND gross >= net)
);
-- What collections pick: the installments owed, by due date.
CREATE INDEX contract_installments_owed_idx ON contract_installments (due_date) WHERE status IN ('due', 'failed');

-- +goose Down
DROP TABLE contract_installments;
