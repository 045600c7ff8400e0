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

-- name: ListObjectAttempts :many
-- Every webhook delivery attempt of one object's events, in order, with
-- the event's type and the endpoint's URL, for its timeline in the console.
SELECT a.event_id, a.run, a.attempt, a.started_at, a.outcome, a.status_code, a.error_class, e.type, w.url
FROM events e
JOIN webhook_attempts a ON a.event_id = e.id
JOIN webhook_endpoints w ON w.id = a.endpoint_id
WHERE e.seller_id = $1 AND e.object_id = $2
ORDER BY a.started_at, a.attempt
LIMIT 500;
