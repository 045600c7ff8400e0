-- name: ReferenceOwners :many
-- The products that own some of the given (source, reference) pairs, with
-- what an import needs to know about them.
SELECT r.source, r.reference, r.product_id, p.support_status, p.support_pinned
FROM product_references r
JOIN products p ON p.id = r.product_id
WHERE r.seller_id = sqlc.arg(seller_id)
  AND (r.source, r.reference) IN (SELECT unnest(sqlc.arg(sources)::text[]), unnest(sqlc.arg(refs)::text[]));

-- name: ProductsByReferences :many
-- The products named by some of the given pairs, each with the pair that
-- named it; pairs no product owns are left out.
SELECT r.source AS ref_source, r.reference AS ref_reference, sqlc.embed(p)
FROM product_references r
JOIN products p ON p.id = r.product_id
WHERE r.seller_id = sqlc.arg(seller_id)
  AND (r.source, r.reference) IN (SELECT unnest(sqlc.arg(sources)::text[]), unnest(sqlc.arg(refs)::text[]));

-- name: DeleteProductReferences :exec
DELETE FROM product_references WHERE product_id = ANY(sqlc.arg(product_ids)::uuid[]);

-- name: InsertProductReferences :exec
INSERT INTO product_references (seller_id, source, reference, product_id, position)
SELECT sqlc.arg(seller_id)::uuid, unnest(sqlc.arg(sources)::text[]), unnest(sqlc.arg(refs)::text[]),
       unnest(sqlc.arg(product_ids)::uuid[]), unnest(sqlc.arg(positions)::integer[]);

-- name: ProductReferences :many
SELECT product_id, source, reference FROM product_references
WHERE product_id = ANY(sqlc.arg(product_ids)::uuid[])
ORDER BY product_id, position;
