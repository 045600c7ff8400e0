-- +goose Up
-- The console's passkeys (WebAuthn credentials), the ceremonies under way
-- and the accounts' recovery codes.
CREATE TABLE console_passkeys (
    -- The credential id the authenticator chose (at most 1023 bytes).
    id              bytea PRIMARY KEY CHECK (length(id) BETWEEN 16 AND 1023),
    user_id         uuid NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
    -- The name its owner gave it ("Laptop", "YubiKey").
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    -- The COSE public key, as the authenticator sent it.
    public_key      bytea NOT NULL,
    -- The signature counter last seen; an assertion must carry a larger one
    -- (or both are 0: authenticators without a counter).
    sign_count      bigint NOT NULL CHECK (sign_count >= 0),
    transports      text[] NOT NULL DEFAULT '{}',
    aaguid          bytea NOT NULL DEFAULT '',
    attestation_type text NOT NULL DEFAULT '',
    -- The backup flags of its registration: an assertion whose backup
    -- eligibility differs is refused (WebAuthn §6.1.3).
    backup_eligible boolean NOT NULL,
    backup_state    boolean NOT NULL,
    user_verified   boolean NOT NULL,
    created_at      timestamptz NOT NULL,
    last_used_at    timestamptz
);
CREATE INDEX console_passkeys_user_idx ON console_passkeys (user_id, created_at);

-- A registration or sign-in ceremony under way: the challenge handed to
-- the browser and what the library needs to check the answer. A row is
-- deleted as its answer is checked, so a challenge serves once.
CREATE TABLE console_passkey_ceremonies (
    challenge  text PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('register', 'sign_in')),
    -- The account registering a passkey; NULL for a sign-in, whose
    -- account the passkey names.
    user_id    uuid REFERENCES console_users (id) ON DELETE CASCADE,
    session    jsonb NOT NULL,
    expires_at timestamptz NOT NULL,
    CHECK ((kind = 'register') = (user_id IS NOT NULL))
);
CREATE INDEX console_passkey_ceremonies_expires_at_idx ON console_passkey_ceremonies (expires_at);

-- An account's recovery codes, by their SHA-256 digest; a used code is
-- deleted, new codes replace all old ones.
CREATE TABLE console_recovery_codes (
    digest  bytea PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES console_users (id) ON DELETE CASCADE
);
CREATE INDEX console_recovery_codes_user_idx ON console_recovery_codes (user_id);

-- +goose Down
DROP TABLE console_recovery_codes;
DROP TABLE console_passkey_ceremonies;
DROP TABLE console_passkeys;
