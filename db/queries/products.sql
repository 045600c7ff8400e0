-- name: LockSellerCatalog :exec
-- Serialises the catalog writes of one seller until the transaction ends,
-- so reference ownership and the sandbox support count stay consistent.
SELECT pg_advisory_xact_lock(hashtextextended('tenure-catalog:' || sqlc.arg(seller_id)::uuid::text, 0));

-- name: StageProducts :copyfrom
-- Copies a chunk of products to import into the staging table.
INSERT INTO product_staging (
    load_id, id, seller_id, title, subtitle, description, manufacturer, product_type, is_active,
    currency, price_net, price_gross, tax_rate, base_rental_net, base_rental_gross,
    ean, mpn, pretty_id, pricing_category, standard_identifiers, seller_categories,
    extra_details, image_url, shop_url, support_status, support_reason, search_text, import_id
) VALUES (
    $1, $2, $3, $4, $5, $6, $7, $8, $9,
    $10, $11, $12, $13, $14, $15,
    $16, $17, $18, $19, $20, $21,
    $22, $23, $24, $25, $26, $27, $28
);

-- name: UpsertStagedProducts :exec
-- Creates the staged products or replaces every field of the existing
-- ones; the id, the creation time and the origin of an existing product
-- stay, and so does a support status a simulation or an operator pinned.
INSERT INTO products (
    id, seller_id, title, subtitle, description, manufacturer, product_type, is_active,
    currency, price_net, price_gross, tax_rate, base_rental_net, base_rental_gross,
    ean, mpn, pretty_id, origin, pricing_category, standard_identifiers, seller_categories,
    extra_details, image_url, shop_url, support_status, support_reason, search_text, import_id
)
SELECT
    id, seller_id, title, subtitle, description, manufacturer, product_type, is_active,
    currency, price_net, price_gross, tax_rate, base_rental_net, base_rental_gross,
    ean, mpn, pretty_id, 'manual', pricing_category, standard_identifiers, seller_categories,
    extra_details, image_url, shop_url, support_status, support_reason, search_text, import_id
FROM product_staging
WHERE load_id = $1
ON CONFLICT (id) DO UPDATE SET
    title = EXCLUDED.title,
    subtitle = EXCLUDED.subtitle,
    description = EXCLUDED.description,
    manufacturer = EXCLUDED.manufacturer,
    product_type = EXCLUDED.product_type,
    is_active = EXCLUDED.is_active,
    currency = EXCLUDED.currency,
    price_net = EXCLUDED.price_net,
    price_gross = EXCLUDED.price_gross,
    tax_rate = EXCLUDED.tax_rate,
    base_rental_net = EXCLUDED.base_rental_net,
    base_rental_gross = EXCLUDED.base_rental_gross,
    ean = EXCLUDED.ean,
    mpn = EXCLUDED.mpn,
    pretty_id = EXCLUDED.pretty_id,
    pricing_category = EXCLUDED.pricing_category,
    standard_identifiers = EXCLUDED.standard_identifiers,
    seller_categories = EXCLUDED.seller_categories,
    extra_details = EXCLUDED.extra_details,
    image_url = EXCLUDED.image_url,
    shop_url = EXCLUDED.shop_url,
    support_status = CASE WHEN products.support_pinned THEN products.support_status ELSE EXCLUDED.support_status END,
    support_reason = CASE WHEN products.support_pinned THEN products.support_reason ELSE EXCLUDED.support_reason END,
    search_text = EXCLUDED.search_text,
    import_id = EXCLUDED.import_id,
    updated_at = now()
WHERE products.seller_id = EXCLUDED.seller_id;

-- name: DeleteStagedProducts :exec
DELETE FROM product_staging WHERE load_id = $1;

-- name: CountSupportedProducts :one
SELECT count(*) FROM products
WHERE seller_id = $1 AND support_status = 'supported';

-- name: ProductsByIDs :many
SELECT * FROM products
WHERE seller_id = $1 AND id = ANY(sqlc.arg(ids)::uuid[])
ORDER BY id;

-- name: MarkProductsUnsupported :many
-- Pins the status, so later imports of the products keep it.
UPDATE products
SET support_status = 'unsupported', support_reason = sqlc.arg(reason), support_pinned = true, updated_at = now()
WHERE seller_id = $1 AND id = ANY(sqlc.arg(ids)::uuid[])
RETURNING id;
