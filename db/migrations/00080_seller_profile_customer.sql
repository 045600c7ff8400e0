-- +goose Up
-- What the end customer's checkout shows of a seller, and what the
-- operator decides for it: the features enabled (capabilities), the
-- contractual entity that finances its offers ('' is the deployment's
-- default) and its terms and conditions documents.
ALTER TABLE sellers
    ADD COLUMN pretty_name             text NOT NULL DEFAULT '',
    ADD COLUMN logo_url                text NOT NULL DEFAULT '',
    ADD COLUMN capabilities            jsonb NOT NULL DEFAULT '{}',
    ADD COLUMN contractual_entity      text NOT NULL DEFAULT '',
    -- [{type, language, url}]: the seller's own documents, and the
    -- operator's replacements of the deployment's documents.
    ADD COLUMN terms_documents         jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN parent_seller_id        uuid REFERENCES sellers (id) ON DELETE SET NULL,
    ADD COLUMN pdf_reader_assistant_id text NOT NULL DEFAULT '',
    ADD COLUMN updated_at              timestamptz NOT NULL DEFAULT now();

-- +goose Down
ALTER TABLE sellers
    DROP COLUMN pretty_name,
    DROP COLUMN logo_url,
    DROP COLUMN capabilities,
    DROP COLUMN contractual_entity,
    DROP COLUMN terms_documents,
    DROP COLUMN parent_seller_id,
    DROP COLUMN pdf_reader_assistant_id,
    DROP COLUMN updated_at;
