-- name: CreateContractReturn :exec
INSERT INTO contract_returns (contract_id, asset_id, return_id, serial_number, tracking_url, returned_on)
VALUES ($1, $2, $3, $4, $5, $6);

-- name: ContractReturnRecorded :one
SELECT EXISTS (SELECT 1 FROM contract_returns WHERE contract_id = $1 AND return_id = $2) AS recorded;

-- name: ListContractReturns :many
SELECT * FROM contract_returns WHERE contract_id = ANY (sqlc.arg(contract_ids)::uuid[]) ORDER BY contract_id, recorded_at, serial_number;
