-- name: CreateConsoleUser :exec
INSERT INTO console_users (id, kind, seller_id, email, role, password_hash, totp_secret)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: GetConsoleUserByEmail :one
SELECT * FROM console_users WHERE email = $1;

-- name: ListConsoleOperators :many
SELECT * FROM console_users WHERE kind = 'operator' ORDER BY email;

-- name: DisableConsoleUser :execrows
UPDATE console_users SET disabled_at = now() WHERE email = $1 AND disabled_at IS NULL;

-- name: UseConsoleTOTPStep :execrows
-- Records the TOTP step of an accepted code, unless that step or a later
-- one was used already: a code signs in once.
UPDATE console_users SET totp_last_step = sqlc.arg(step)
WHERE id = sqlc.arg(id) AND totp_last_step < sqlc.arg(step);

-- name: ListSellerConsoleUsers :many
-- A seller's users in the console, by address.
SELECT * FROM console_users WHERE kind = 'seller_user' AND seller_id = $1 ORDER BY email;
