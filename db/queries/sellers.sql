-- name: CreateSeller :one
INSERT INTO sellers (id, name, currency)
VALUES ($1, $2, $3)
RETURNING *;

-- name: GetSeller :one
SELECT * FROM sellers WHERE id = $1;

-- name: ListSellers :many
SELECT * FROM sellers ORDER BY created_at, id;

-- name: SetSellerPaymentMethodRequired :execrows
-- Whether the seller's customers must give a payment method (a SEPA
-- mandate) before they accept an offer.
UPDATE sellers SET payment_method_required = sqlc.arg(required) WHERE id = sqlc.arg(id);

-- name: SetSellerContractResidual :execrows
-- The seller's own residual value of its contracts' buy-outs, in basis
-- points of the net purchase price; null falls back to the deployment's
-- contracts.residual_basis_points.
UPDATE sellers SET contract_residual_basis_points = sqlc.narg(basis_points) WHERE id = sqlc.arg(id);

-- name: ListSellersPage :many
-- The console's list of sellers by name, a page after (after_name,
-- after_id), each with how many API clients it has.
SELECT s.*, (SELECT count(*) FROM seller_credentials c WHERE c.seller_id = s.id) AS clients
FROM sellers s
WHERE (s.name, s.id) > (sqlc.arg(after_name)::text, sqlc.arg(after_id)::uuid)
ORDER BY s.name, s.id
LIMIT sqlc.arg(page_size);
