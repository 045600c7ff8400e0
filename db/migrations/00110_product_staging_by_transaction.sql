-- +goose Up
-- Imports copy the products the catalog does not know straight into
-- products and stage only the ones they replace (issue 27). The staging
-- table takes the same columns as that copy, so one row serves both, and
-- its rows belong to the transaction that staged them rather than to a
-- load id: a chunk is staged, applied and deleted in one transaction.
DROP INDEX product_staging_load_idx;
ALTER TABLE product_staging DROP COLUMN load_id;
ALTER TABLE product_staging ADD COLUMN origin text NOT NULL;
ALTER TABLE product_staging ADD COLUMN xact xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX product_staging_xact_idx ON product_staging (xact);

-- +goose Down
DROP INDEX product_staging_xact_idx;
ALTER TABLE product_staging DROP COLUMN xact;
ALTER TABLE product_staging DROP COLUMN origin;
ALTER TABLE product_staging ADD COLUMN load_id uuid NOT NULL;
CREATE INDEX product_staging_load_idx ON product_staging (load_id);
