-- +goose Up
-- Limits an operator sets for one seller, by name (max_offer_net, ...),
-- which the risk rules read as seller.limits. Amounts are cents (or counts,
-- as the rules that read them say).
CREATE TABLE seller_risk_limits (
    seller_id  uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    name       text NOT NULL CHECK (name ~ '^[a-z][a-z0-9_]{0,62}$'),
    amount     bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (seller_id, name)
);

-- +goose Down
DROP TABLE seller_risk_limits;
