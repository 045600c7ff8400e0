-- name: StartAttempt :one
-- Claims an attempt before its request goes out; no row when an earlier
-- execution of the activity claimed it already.
INSERT INTO webhook_attempts (event_id, endpoint_id, run, attempt)
VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING
RETURNING *;

-- name: GetAttempt :one
SELECT * FROM webhook_attempts
WHERE event_id = $1 AND endpoint_id = $2 AND run = $3 AND attempt = $4;

-- name: FinishAttempt :one
-- Records the outcome of a claimed attempt once; no row when it was
-- recorded already.
UPDATE webhook_attempts
SET outcome = sqlc.arg(outcome), finished_at = now(), status_code = sqlc.narg(status_code),
    latency_ms = sqlc.narg(latency_ms), error_class = sqlc.narg(error_class),
    response_excerpt = sqlc.narg(response_excerpt)
WHERE event_id = $1 AND endpoint_id = $2 AND run = $3 AND attempt = $4 AND outcome = 'sending'
RETURNING *;

-- name: ListEventAttempts :many
SELECT * FROM webhook_attempts
WHERE event_id = $1
ORDER BY started_at, endpoint_id, run, attempt;
