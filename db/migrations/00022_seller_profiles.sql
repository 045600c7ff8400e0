-- +goose Up
-- What orders copy about their seller (seller_info): how to reach it and
-- the reference source its systems use.
ALTER TABLE sellers
    ADD COLUMN email                    text NOT NULL DEFAULT '',
    ADD COLUMN address                  jsonb NOT NULL DEFAULT '{}',
    ADD COLUMN product_reference_source text NOT NULL DEFAULT 'sku';

-- +goose Down
ALTER TABLE sellers
    DROP COLUMN email,
    DROP COLUMN address,
    DROP COLUMN product_reference_source;
