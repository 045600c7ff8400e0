-- name: ProductsByReferences :many
-- The products named by some of the given pairs, each with the pair that
-- named it; pairs no product owns are left out.
SELECT r.source AS ref_source, r.reference AS ref_reference, sqlc.embed(p)
FROM product_references r
JOIN products p ON p.id = r.product_id
WHERE r.seller_id = sqlc.arg(seller_id)
  AND (r.source, r.reference) IN (SELECT unnest(sqlc.arg(sources)::text[]), unnest(sqlc.arg(refs)::text[]));

-- name: ItemsByReferences :many
-- ProductsByReferences with each product's references in the seller's
-- order: what an offer's lines name, in one round trip.
SELECT r.source AS ref_source, r.reference AS ref_reference, sqlc.embed(p),
       own.sources::text[] AS own_sources, own.refs::text[] AS own_refs
FROM product_references r
JOIN products p ON p.id = r.product_id
CROSS JOIN LATERAL (
    SELECT array_agg(a.source ORDER BY a.position) AS sources, array_agg(a.reference ORDER BY a.position) AS refs
    FROM product_references a
    WHERE a.product_id = p.id
) own
WHERE r.seller_id = sqlc.arg(seller_id)
  AND (r.source, r.reference) IN (SELECT unnest(sqlc.arg(sources)::text[]), unnest(sqlc.arg(refs)::text[]));

-- name: DeleteProductReferences :exec
DELETE FROM product_references WHERE product_id = ANY(sqlc.arg(product_ids)::uuid[]);

-- name: CopyProductReferences :copyfrom
INSERT INTO product_references (seller_id, source, reference, product_id, position)
VALUES ($1, $2, $3, $4, $5);

-- name: ProductReferences :many
SELECT product_id, source, reference FROM product_references
WHERE product_id = ANY(sqlc.arg(product_ids)::uuid[])
ORDER BY product_id, position;
