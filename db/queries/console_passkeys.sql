-- name: CreateConsolePasskey :exec
INSERT INTO console_passkeys (id, user_id, name, public_key, sign_count, transports, aaguid, attestation_type,
    backup_eligible, backup_state, user_verified, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- name: ListConsolePasskeys :many
-- An account's passkeys, oldest first.
SELECT * FROM console_passkeys WHERE user_id = $1 ORDER BY created_at, id;

-- name: GetConsolePasskey :one
-- A passkey by its credential id, with its enabled account.
SELECT sqlc.embed(p), sqlc.embed(u)
FROM console_passkeys p JOIN console_users u ON u.id = p.user_id
WHERE p.id = $1;

-- name: UseConsolePasskey :execrows
-- Records a sign-in's signature counter, unless another sign-in moved it
-- past that meanwhile (a counter that does not grow signs in once).
UPDATE console_passkeys SET sign_count = sqlc.arg(sign_count), backup_state = sqlc.arg(backup_state),
    last_used_at = sqlc.arg(used_at)
WHERE id = sqlc.arg(id)
  AND (sign_count < sqlc.arg(sign_count) OR (sign_count = 0 AND sqlc.arg(sign_count) = 0));

-- name: DeleteConsolePasskey :execrows
DELETE FROM console_passkeys WHERE id = $1 AND user_id = $2;

-- name: CreateConsolePasskeyCeremony :exec
INSERT INTO console_passkey_ceremonies (challenge, kind, user_id, session, expires_at) VALUES ($1, $2, $3, $4, $5);

-- name: TakeConsolePasskeyCeremony :one
-- A live ceremony of its kind by its challenge, deleted as it is read, so
-- its answer is checked once.
DELETE FROM console_passkey_ceremonies
WHERE challenge = sqlc.arg(challenge) AND kind = sqlc.arg(kind) AND expires_at > sqlc.arg(now)::timestamptz
RETURNING user_id, session;

-- name: DeleteExpiredConsolePasskeyCeremonies :exec
DELETE FROM console_passkey_ceremonies WHERE expires_at <= sqlc.arg(now)::timestamptz;

-- name: DeleteConsoleRecoveryCodes :exec
DELETE FROM console_recovery_codes WHERE user_id = $1;

-- name: CreateConsoleRecoveryCode :exec
INSERT INTO console_recovery_codes (digest, user_id) VALUES ($1, $2);

-- name: UseConsoleRecoveryCode :execrows
DELETE FROM console_recovery_codes WHERE digest = $1 AND user_id = $2;

-- name: CountConsoleRecoveryCodes :one
SELECT count(*)::bigint FROM console_recovery_codes WHERE user_id = $1;
