-- +goose Up
-- The assets of a contract given back, each once, by serial number with
-- the return's tracking link, on a day of the contract's clock. return_id
-- is the recording's, so a retried recording finds its rows.
CREATE TABLE contract_returns (
    contract_id   uuid NOT NULL REFERENCES rental_contracts (id) ON DELETE CASCADE,
    asset_id      uuid NOT NULL REFERENCES order_assets (id) ON DELETE CASCADE,
    return_id     uuid NOT NULL,
    serial_number text NOT NULL,
    tracking_url  text NOT NULL,
    returned_on   date NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (contract_id, asset_id)
);

-- +goose Down
DROP TABLE contract_returns;
