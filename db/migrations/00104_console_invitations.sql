-- +goose Up
-- Invitations to the console: a single-use link that expires, known to
-- the database only by the SHA-256 digest of its token. Opening it lets
-- its account set a password and add its TOTP key; the first acceptance
-- uses it (and every other open invitation of the account) up.
CREATE TABLE console_invitations (
    token_digest bytea PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
    -- Who invited: an account's e-mail address, or the command that did.
    invited_by   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz
);
CREATE INDEX console_invitations_user_idx ON console_invitations (user_id, created_at);

-- A seller's credential can be revoked from the merchant portal: a revoked
-- credential stays listed (when, and its client id, for the seller's
-- records) but neither gets tokens nor keeps the ones it got.
ALTER TABLE seller_credentials ADD COLUMN revoked_at timestamptz;

-- +goose Down
ALTER TABLE seller_credentials DROP COLUMN revoked_at;
DROP TABLE console_invitations;
