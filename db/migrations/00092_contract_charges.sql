-- +goose Up
-- A contract's one-off charges: the buy-out at the residual value, the
-- final charge of an early termination (issue 24 adds fees). key tells
-- apart several charges of a kind; the final charges have one each.
CREATE TABLE contract_charges (
    id          uuid PRIMARY KEY,
    contract_id uuid NOT NULL REFERENCES rental_contracts (id) ON DELETE CASCADE,
    kind        text NOT NULL,
    key         text NOT NULL DEFAULT '',
    currency    text NOT NULL,
    net         bigint NOT NULL,
    gross       bigint NOT NULL,
    tax_rate    bigint NOT NULL,
    due_date    date NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (contract_id, kind, key)
);

-- +goose Down
DROP TABLE contract_charges;
