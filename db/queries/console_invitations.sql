-- name: CreateConsoleInvitation :exec
INSERT INTO console_invitations (token_digest, user_id, invited_by, created_at, expires_at)
VALUES ($1, $2, $3, $4, $5);

-- name: GetConsoleInvitation :one
-- An invitation by its token's digest, with its account.
SELECT i.expires_at, i.used_at, sqlc.embed(u)
FROM console_invitations i
JOIN console_users u ON u.id = i.user_id
WHERE i.token_digest = $1;

-- name: UseConsoleInvitation :execrows
-- Uses an open invitation up, and with it every other open invitation
-- of its account: an account is set up once per invitation.
UPDATE console_invitations SET used_at = sqlc.arg(now)::timestamptz
WHERE user_id = (
    SELECT user_id FROM console_invitations c
    WHERE c.token_digest = sqlc.arg(token_digest) AND c.used_at IS NULL AND c.expires_at > sqlc.arg(now)::timestamptz
) AND used_at IS NULL;

-- name: SetConsoleUserPassword :exec
UPDATE console_users SET password_hash = $2 WHERE id = $1;

-- name: GetSellerUser :one
-- A seller's user by id; another seller's is not found.
SELECT * FROM console_users WHERE id = $1 AND seller_id = sqlc.arg(seller_id)::uuid;

-- name: ListSellerUsers :many
-- A seller's users by e-mail address, each with whether it accepted an
-- invitation and when its last open invitation expires: an account
-- invited but not set up yet has no usable password.
SELECT sqlc.embed(u),
    EXISTS (SELECT 1 FROM console_invitations i WHERE i.user_id = u.id) AS invited,
    EXISTS (SELECT 1 FROM console_invitations i WHERE i.user_id = u.id AND i.used_at IS NOT NULL) AS accepted
FROM console_users u
WHERE u.seller_id = sqlc.arg(seller_id)::uuid
ORDER BY u.email;
