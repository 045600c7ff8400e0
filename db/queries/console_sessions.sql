-- name: CreateConsoleSession :exec
INSERT INTO console_sessions (token_digest, user_id, csrf_token, created_at, last_seen_at, expires_at)
VALUES ($1, $2, $3, $4, $4, $5);

-- name: TouchConsoleSession :one
-- The live session of a token digest, its last_seen_at moved to now: a
-- session past its absolute end, idle since idle_since, or of a
-- disabled account is not found.
UPDATE console_sessions s SET last_seen_at = sqlc.arg(now)::timestamptz
FROM console_users u
WHERE s.token_digest = sqlc.arg(token_digest) AND u.id = s.user_id AND u.disabled_at IS NULL
  AND s.expires_at > sqlc.arg(now)::timestamptz
  AND s.last_seen_at > sqlc.arg(idle_since)::timestamptz
RETURNING s.csrf_token, s.created_at, s.expires_at, u.id AS user_id, u.kind, u.seller_id, u.email, u.role;

-- name: DeleteConsoleSession :exec
DELETE FROM console_sessions WHERE token_digest = $1;

-- name: DeleteConsoleUserSessions :exec
DELETE FROM console_sessions WHERE user_id = $1;

-- name: DeleteExpiredConsoleSessions :exec
DELETE FROM console_sessions WHERE expires_at < sqlc.arg(now)::timestamptz;

-- name: RecordConsoleSignInFailure :exec
INSERT INTO console_sign_in_failures (email, address, failed_at) VALUES ($1, $2, $3);

-- name: CountConsoleSignInFailures :one
-- Failures since a time, of the account and of the address.
SELECT
    count(*) FILTER (WHERE email = sqlc.arg(email))::bigint AS by_account,
    count(*) FILTER (WHERE address = sqlc.arg(address))::bigint AS by_address
FROM console_sign_in_failures
WHERE failed_at > sqlc.arg(since)::timestamptz AND (email = sqlc.arg(email) OR address = sqlc.arg(address));

-- name: DeleteOldConsoleSignInFailures :exec
DELETE FROM console_sign_in_failures WHERE failed_at < sqlc.arg(before)::timestamptz;
