-- +goose Up
CREATE TABLE shipping_methods (
    id                               uuid PRIMARY KEY,
    seller_id                        uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    seller_shipping_method_reference text NOT NULL,
    name                             text NOT NULL DEFAULT '',
    is_in_store_pickup               boolean NOT NULL DEFAULT false,
    supported                        boolean NOT NULL DEFAULT true,
    created_at                       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT shipping_methods_reference_key UNIQUE (seller_id, seller_shipping_method_reference)
);
-- Ids are UUIDv7, so (seller_id, id) orders a seller's methods by creation.
CREATE INDEX shipping_methods_seller_id_idx ON shipping_methods (seller_id, id);

-- +goose Down
DROP TABLE shipping_methods;
