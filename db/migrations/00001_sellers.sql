-- +goose Up
-- Sellers are the merchants using Tenure; every other row belongs to one.
CREATE TABLE sellers (
    id         uuid PRIMARY KEY,
    name       text NOT NULL,
    currency   text NOT NULL DEFAULT 'EUR',
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A seller signs in with client credentials; the secret is kept only as a
-- slow hash. A seller may hold several credentials (one per integration).
CREATE TABLE seller_credentials (
    client_id   text PRIMARY KEY,
    seller_id   uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    secret_hash text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    rotated_at  timestamptz
);
CREATE INDEX seller_credentials_seller_idx ON seller_credentials (seller_id);

-- +goose Down
DROP TABLE seller_credentials;
DROP TABLE sellers;
