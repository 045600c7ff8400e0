-- +goose Up
-- A code a customer types is found by the SHA-256 digest of its upper-case
-- form, never by the code itself: the index walk then compares digests,
-- whose timing tells nothing about the codes, and the code found is
-- compared with the typed one in constant time (package discounts). Codes
-- are ASCII letters, digits, _ and -, so upper() here and Go's
-- strings.ToUpper agree on them.
ALTER TABLE discount_codes ADD COLUMN code_digest bytea;
UPDATE discount_codes SET code_digest = sha256(convert_to(upper(code), 'UTF8'));
ALTER TABLE discount_codes ALTER COLUMN code_digest SET NOT NULL;
DROP INDEX discount_codes_seller_code_idx;
CREATE INDEX discount_codes_seller_digest_idx ON discount_codes (seller_id, code_digest, created_at DESC);

-- +goose Down
DROP INDEX discount_codes_seller_digest_idx;
CREATE INDEX discount_codes_seller_code_idx ON discount_codes (seller_id, upper(code), created_at DESC);
ALTER TABLE discount_codes DROP COLUMN code_digest;
