-- +goose Up
-- A CSV import's products enter the trigram index of search_text after the
-- job has completed rather than row by row as they are copied in (issue 27,
-- decision 0280): maintaining that index was two thirds of a first import.
-- search_pending marks a product stored but not yet indexed; the index
-- leaves such rows out, and term searches read them through the small
-- index of pending rows, so a search finds a product as soon as its chunk
-- is committed, as before.
ALTER TABLE products ADD COLUMN search_pending boolean NOT NULL DEFAULT false;
ALTER TABLE product_staging ADD COLUMN search_pending boolean NOT NULL DEFAULT false;
DROP INDEX products_search_text_trgm_idx;
CREATE INDEX products_search_text_trgm_idx ON products USING gin (search_text gin_trgm_ops) WHERE NOT search_pending;
CREATE INDEX products_search_pending_idx ON products (seller_id) WHERE search_pending;

-- +goose Down
DROP INDEX products_search_pending_idx;
DROP INDEX products_search_text_trgm_idx;
CREATE INDEX products_search_text_trgm_idx ON products USING gin (search_text gin_trgm_ops);
ALTER TABLE product_staging DROP COLUMN search_pending;
ALTER TABLE products DROP COLUMN search_pending;
