-- name: LockSellerCatalog :exec
-- Serialises the catalog writes of one seller until the transaction ends,
-- so reference ownership and the sandbox support count stay consistent.
SELECT pg_advisory_xact_lock(hashtextextended('tenure-catalog:' || sqlc.arg(seller_id)::uuid::text, 0));

-- name: LockSellerCatalogForImport :exec
-- The catalog lock as a file import's chunk takes it: shared with the
-- other chunks of the same run, which may be written side by side
-- (catalog.Flight), and exclusive of every other writer. Runs of two
-- imports of one seller never share it: each run holds the seller's
-- TryLockSellerImportRuns lock.
SELECT pg_advisory_xact_lock_shared(hashtextextended('tenure-catalog:' || sqlc.arg(seller_id)::uuid::text, 0));

-- name: CopyProducts :copyfrom
-- Copies a chunk of an import's products the catalog does not know yet
-- into it; StageProducts takes the same columns. A CSV import's products
-- come in with search_pending set, outside the trigram index until
-- IndexPendingProducts lets them in.
INSERT INTO products (
    id, seller_id, title, subtitle, description, manufacturer, product_type, is_active,
    currency, price_net, price_gross, tax_rate, base_rental_net, base_rental_gross,
    ean, mpn, pretty_id, origin, pricing_category, standard_identifiers, seller_categories,
    extra_details, image_url, shop_url, support_status, support_reason, search_text, import_id,
    search_pending
) VALUES (
    $1, $2, $3, $4, $5, $6, $7, $8,
    $9, $10, $11, $12, $13, $14,
    $15, $16, $17, $18, $19, $20, $21,
    $22, $23, $24, $25, $26, $27, $28,
    $29
);

-- name: StageProducts :copyfrom
-- Copies a chunk of an import's products that replace catalog products
-- into the staging table, as rows of this transaction.
INSERT INTO product_staging (
    id, seller_id, title, subtitle, description, manufacturer, product_type, is_active,
    currency, price_net, price_gross, tax_rate, base_rental_net, base_rental_gross,
    ean, mpn, pretty_id, origin, pricing_category, standard_identifiers, seller_categories,
    extra_details, image_url, shop_url, support_status, support_reason, search_text, import_id,
    search_pending
) VALUES (
    $1, $2, $3, $4, $5, $6, $7, $8,
    $9, $10, $11, $12, $13, $14,
    $15, $16, $17, $18, $19, $20, $21,
    $22, $23, $24, $25, $26, $27, $28,
    $29
);

-- name: UpdateStagedProducts :exec
-- Replaces every field of the catalog products this transaction staged
-- replacements of; the id, the creation time and the origin stay, and so
-- does a support status a simulation or an operator pinned.
UPDATE products p SET
    title = s.title,
    subtitle = s.subtitle,
    description = s.description,
    manufacturer = s.manufacturer,
    product_type = s.product_type,
    is_active = s.is_active,
    currency = s.currency,
    price_net = s.price_net,
    price_gross = s.price_gross,
    tax_rate = s.tax_rate,
    base_rental_net = s.base_rental_net,
    base_rental_gross = s.base_rental_gross,
    ean = s.ean,
    mpn = s.mpn,
    pretty_id = s.pretty_id,
    pricing_category = s.pricing_category,
    standard_identifiers = s.standard_identifiers,
    seller_categories = s.seller_categories,
    extra_details = s.extra_details,
    image_url = s.image_url,
    shop_url = s.shop_url,
    support_status = CASE WHEN p.support_pinned THEN p.support_status ELSE s.support_status END,
    support_reason = CASE WHEN p.support_pinned THEN p.support_reason ELSE s.support_reason END,
    search_text = s.search_text,
    import_id = s.import_id,
    search_pending = s.search_pending,
    updated_at = now()
FROM product_staging s
WHERE s.xact = pg_current_xact_id() AND p.id = s.id AND p.seller_id = s.seller_id;

-- name: IndexPendingProducts :execrows
-- Lets up to batch of a seller's products that wait for the trigram index
-- into it. Run under the seller's catalog lock, so that it never waits for
-- an import's rows nor one for it.
UPDATE products p SET search_pending = false
WHERE p.search_pending AND p.id IN (
    SELECT q.id FROM products q
    WHERE q.seller_id = sqlc.arg(seller_id)::uuid AND q.search_pending
    LIMIT sqlc.arg(batch)
);

-- name: DeleteStagedProducts :exec
DELETE FROM product_staging WHERE xact = pg_current_xact_id();

-- name: CountSupportedProducts :one
-- The seller's supported products, leaving out the given ones: the new
-- products of an import's chunk whose transaction may or may not have
-- committed yet, which the caller counts itself.
SELECT count(*) FROM products
WHERE seller_id = $1 AND support_status = 'supported'
  AND NOT (id = ANY(coalesce(sqlc.arg(excluded)::uuid[], '{}')));

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
