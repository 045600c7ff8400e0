-- name: GetSellerForUpdate :one
SELECT * FROM sellers WHERE id = $1 FOR UPDATE;

-- name: UpdateSellerProfile :one
-- Writes a whole profile; callers read it FOR UPDATE and merge their
-- change first, so concurrent edits of different fields both survive.
UPDATE sellers
SET name = $2, pretty_name = $3, logo_url = $4, email = $5, address = $6,
    product_reference_source = $7, capabilities = $8, contractual_entity = $9,
    terms_documents = $10, parent_seller_id = $11, pdf_reader_assistant_id = $12,
    updated_at = now()
WHERE id = $1
RETURNING *;
