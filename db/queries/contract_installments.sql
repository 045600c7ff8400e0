-- name: CreateContractInstallment :exec
-- An installment of a schedule as it starts or grows: a retried start or
-- extension inserts nothing.
INSERT INTO contract_installments (contract_id, number, period_from, period_to, due_date, currency, net, gross, tax_rate, status)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (contract_id, number) DO NOTHING;

-- name: ListContractInstallments :many
SELECT * FROM contract_installments WHERE contract_id = ANY (sqlc.arg(contract_ids)::uuid[]) ORDER BY contract_id, number;

-- name: SetInstallmentStatus :execrows
-- Moves an installment only from the expected status: a retried move
-- changes no row.
UPDATE contract_installments
SET status = sqlc.arg(to_status), status_changed_at = now()
WHERE contract_id = sqlc.arg(contract_id) AND number = sqlc.arg(number) AND status = sqlc.arg(from_status);
