-- name: AppendConsoleAudit :exec
INSERT INTO console_audit (id, actor_id, actor_email, action, target, detail, outcome, address, request_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- name: ListConsoleAudit :many
-- The newest entries first, a page before (before_at, before_id), of an
-- action ('' for all).
SELECT * FROM console_audit
WHERE (at, id) < (sqlc.arg(before_at)::timestamptz, sqlc.arg(before_id)::uuid)
  AND (sqlc.arg(action)::text = '' OR action = sqlc.arg(action)::text)
ORDER BY at DESC, id DESC
LIMIT sqlc.arg(page_size);

-- name: ListConsoleAuditOfTarget :many
-- What was done to one target, in order: an offer's decisions.
SELECT * FROM console_audit WHERE target = $1 ORDER BY at, id LIMIT 100;
