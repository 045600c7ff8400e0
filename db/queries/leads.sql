-- name: CreateLead :exec
INSERT INTO leads (id, email, company, first_name, last_name, phone, website, client_address)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8);

-- name: ListLeads :many
SELECT * FROM leads
WHERE created_at >= sqlc.arg(since)::timestamptz
ORDER BY created_at, id
LIMIT sqlc.arg(row_limit)::bigint;
