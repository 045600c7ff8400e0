-- +goose Up
-- The early termination quotes of a contract (contracts.Quote in quote):
-- one a day and schedule, valid from quote_date to valid_until; accepting
-- one terminates the contract.
CREATE TABLE contract_termination_quotes (
    id          uuid PRIMARY KEY,
    contract_id uuid NOT NULL REFERENCES rental_contracts (id) ON DELETE CASCADE,
    quote_date  date NOT NULL,
    valid_until date NOT NULL,
    quote       jsonb NOT NULL,
    accepted_at timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contract_termination_quotes_contract_idx ON contract_termination_quotes (contract_id, created_at);

-- +goose Down
DROP TABLE contract_termination_quotes;
