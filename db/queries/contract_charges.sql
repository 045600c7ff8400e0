-- name: CreateContractCharge :exec
-- A retried change records its charge once.
INSERT INTO contract_charges (id, contract_id, kind, key, currency, net, gross, tax_rate, due_date)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (contract_id, kind, key) DO NOTHING;

-- name: ListContractCharges :many
SELECT * FROM contract_charges WHERE contract_id = ANY (sqlc.arg(contract_ids)::uuid[]) ORDER BY contract_id, created_at, id;
