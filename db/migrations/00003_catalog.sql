-- +goose Up
-- Trigram indexes make case-insensitive substring search fast.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- A product of a seller's catalog. Money is integer minor units, tax rates
-- percent × 100 (1900 = 19 %).
CREATE TABLE products (
    id                   uuid PRIMARY KEY,
    seller_id            uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    title                text NOT NULL,
    subtitle             text NOT NULL DEFAULT '',
    description          text NOT NULL DEFAULT '',
    manufacturer         text NOT NULL DEFAULT '',
    -- NULL when the seller did not say.
    product_type         text CHECK (product_type IN ('hardware', 'software', 'service', 'hardware_built_to_order')),
    is_active            boolean NOT NULL,
    archived             boolean NOT NULL DEFAULT false,
    currency             text NOT NULL,
    price_net            bigint NOT NULL CHECK (price_net > 0),
    price_gross          bigint NOT NULL CHECK (price_gross >= price_net),
    -- As sent, or derived from net and gross when the seller sent none.
    tax_rate             bigint NOT NULL CHECK (tax_rate >= 0),
    base_rental_net      bigint CHECK (base_rental_net > 0),
    base_rental_gross    bigint CHECK (base_rental_gross >= base_rental_net),
    ean                  text NOT NULL DEFAULT '',
    mpn                  text NOT NULL DEFAULT '',
    pretty_id            text NOT NULL DEFAULT '',
    -- manual: put in the catalog by the seller (batch or CSV import);
    -- automatic: created by Tenure; central_catalog: from a shared catalog.
    origin               text NOT NULL CHECK (origin IN ('manual', 'automatic', 'central_catalog')),
    pricing_category     text NOT NULL,
    standard_identifiers jsonb NOT NULL DEFAULT '[]',
    seller_categories    jsonb NOT NULL DEFAULT '[]',
    extra_details        jsonb NOT NULL DEFAULT '[]',
    image_url            text NOT NULL DEFAULT '',
    shop_url             text NOT NULL DEFAULT '',
    support_status       text NOT NULL CHECK (support_status IN ('supported', 'unsupported', 'to_be_reviewed')),
    support_reason       text NOT NULL DEFAULT '',
    -- A status set by a simulation or an operator, which imports keep.
    support_pinned       boolean NOT NULL DEFAULT false,
    -- Lower-cased title, subtitle, manufacturer, references, EAN and MPN,
    -- one per line, written by the importer: what term searches look in.
    search_text          text NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT products_base_rental_complete CHECK ((base_rental_net IS NULL) = (base_rental_gross IS NULL))
);
-- Ids are UUIDv7, so (seller_id, id) orders a seller's products by creation.
CREATE INDEX products_seller_id_idx ON products (seller_id, id);
CREATE INDEX products_search_text_trgm_idx ON products USING gin (search_text gin_trgm_ops);
-- Counting a sandbox seller's supported products for the 10,000 cap.
CREATE INDEX products_supported_idx ON products (seller_id) WHERE support_status = 'supported';

-- The (source, reference) pairs that identify products: a pair belongs to
-- at most one product of a seller.
CREATE TABLE product_references (
    seller_id  uuid NOT NULL,
    source     text NOT NULL,
    reference  text NOT NULL,
    product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    -- The order the seller listed the product's references in.
    position   integer NOT NULL,
    PRIMARY KEY (seller_id, source, reference)
);
CREATE INDEX product_references_product_idx ON product_references (product_id, position);

-- Product batch imports (POST /v1/catalog/import). Large batches keep their
-- products in payload until the import workflow has run.
CREATE TABLE product_imports (
    id                uuid PRIMARY KEY,
    seller_id         uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    status            text NOT NULL CHECK (status IN ('created', 'started', 'completed', 'failed')),
    total_products    integer NOT NULL,
    imported_products integer NOT NULL DEFAULT 0,
    rejected_products integer NOT NULL DEFAULT 0,
    -- The first rejections, [{index, source, reference, code, description}].
    sample_rejected   jsonb NOT NULL DEFAULT '[]',
    payload           jsonb,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX product_imports_seller_id_idx ON product_imports (seller_id, id);

-- +goose Down
DROP TABLE product_imports;
DROP TABLE product_references;
DROP TABLE products;
