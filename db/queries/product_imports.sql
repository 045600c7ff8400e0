-- name: CreateProductImport :exec
INSERT INTO product_imports (id, seller_id, status, total_products, imported_products, rejected_products, sample_rejected, payload)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8);

-- name: GetProductImport :one
SELECT id, seller_id, status, total_products, imported_products, rejected_products, sample_rejected, created_at, updated_at
FROM product_imports
WHERE id = $1 AND seller_id = $2;

-- name: ProductImportPayload :one
SELECT seller_id, status, total_products, payload FROM product_imports WHERE id = $1;

-- name: StartProductImport :exec
UPDATE product_imports SET status = 'started', updated_at = now()
WHERE id = $1 AND status = 'created';

-- name: FinishProductImport :exec
-- Stores the result and drops the products, which are no longer needed.
UPDATE product_imports
SET status = $2, imported_products = $3, rejected_products = $4, sample_rejected = $5, payload = NULL, updated_at = now()
WHERE id = $1;

-- name: FailProductImport :exec
-- Marks an import its workflow gave up on; a finished one keeps its result.
-- The products stay, for whoever looks into the failure.
UPDATE product_imports SET status = 'failed', updated_at = now()
WHERE id = $1 AND status IN ('created', 'started');
