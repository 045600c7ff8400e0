-- +goose Up
-- CSV catalog import jobs (POST /v1/catalog/imports). Each job's workflow
-- moves it through its statuses; the processing activity commits its
-- counters together with every chunk of rows, so a retried activity
-- resumes exactly where the last committed chunk ended.
CREATE TABLE csv_imports (
    id             uuid PRIMARY KEY,
    seller_id      uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    filename       text NOT NULL,
    status         text NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'queued', 'running', 'ingested', 'completed', 'failed', 'cancelled')),
    -- Where the uploaded file is (and would be) in the blob store.
    object_path    text NOT NULL,
    -- Set while an upload is being received, and for good once one has
    -- been stored: the upload link works once.
    upload_started_at timestamptz,
    uploaded_at    timestamptz,
    -- Why the whole file was refused; empty otherwise.
    error          text NOT NULL DEFAULT '',
    processed      bigint NOT NULL DEFAULT 0,
    succeeded      bigint NOT NULL DEFAULT 0,
    failed         bigint NOT NULL DEFAULT 0,
    supported      bigint NOT NULL DEFAULT 0,
    unsupported    bigint NOT NULL DEFAULT 0,
    to_be_reviewed bigint NOT NULL DEFAULT 0,
    -- The error CSV in the blob store, once written.
    errors_path    text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
-- Counting a seller's imports in progress for the limit of five.
CREATE INDEX csv_imports_active_idx ON csv_imports (seller_id)
    WHERE status IN ('pending', 'queued', 'running');

-- The rows of a job that failed, written with the chunk they belong to and
-- turned into the error CSV when the job ends.
CREATE TABLE csv_import_errors (
    import_id   uuid NOT NULL REFERENCES csv_imports (id) ON DELETE CASCADE,
    line        bigint NOT NULL,
    reference   text NOT NULL,
    column_name text NOT NULL,
    reason      text NOT NULL,
    PRIMARY KEY (import_id, line)
);

-- The import (batch or CSV) that last wrote a product: a CSV row naming a
-- product an earlier row of the same file wrote is a duplicate.
ALTER TABLE products ADD COLUMN import_id uuid;

-- Products on their way into the catalog: each chunk of an import is
-- copied here (COPY) and upserted into products by one statement, then
-- deleted, inside one transaction. Unlogged: nothing here outlives it.
CREATE UNLOGGED TABLE product_staging (
    load_id           uuid NOT NULL,
    id                uuid NOT NULL,
    seller_id         uuid NOT NULL,
    title             text NOT NULL,
    subtitle          text NOT NULL,
    description       text NOT NULL,
    manufacturer      text NOT NULL,
    product_type      text,
    is_active         boolean NOT NULL,
    currency          text NOT NULL,
    price_net         bigint NOT NULL,
    price_gross       bigint NOT NULL,
    tax_rate          bigint NOT NULL,
    base_rental_net   bigint,
    base_rental_gross bigint,
    ean               text NOT NULL,
    mpn               text NOT NULL,
    pretty_id         text NOT NULL,
    pricing_category  text NOT NULL,
    standard_identifiers jsonb NOT NULL,
    seller_categories jsonb NOT NULL,
    extra_details     jsonb NOT NULL,
    image_url         text NOT NULL,
    shop_url          text NOT NULL,
    support_status    text NOT NULL,
    support_reason    text NOT NULL,
    search_text       text NOT NULL,
    import_id         uuid
);
CREATE INDEX product_staging_load_idx ON product_staging (load_id);

-- +goose Down
DROP TABLE product_staging;
ALTER TABLE products DROP COLUMN import_id;
DROP TABLE csv_import_errors;
DROP TABLE csv_imports;
