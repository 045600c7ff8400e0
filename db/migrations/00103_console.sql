-- +goose Up
-- The console's accounts, sessions, sign-in failures and audit log.
-- An operator works for Tenure (seller_id NULL, roles reviewer, finance,
-- admin); a seller user works for one seller (roles admin, agent).
CREATE TABLE console_users (
    id            uuid PRIMARY KEY,
    kind          text NOT NULL CHECK (kind IN ('operator', 'seller_user')),
    seller_id     uuid REFERENCES sellers (id) ON DELETE CASCADE,
    email         text NOT NULL UNIQUE CHECK (email = lower(email)),
    role          text NOT NULL,
    -- argon2id in the PHC string form ($argon2id$v=19$m=…,t=…,p=…$salt$hash).
    password_hash text NOT NULL,
    -- The TOTP secret sealed with console.totp_keys, the user's id as context.
    totp_secret   bytea NOT NULL,
    -- The last TOTP time step accepted, so a code is used once.
    totp_last_step bigint NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL DEFAULT now(),
    disabled_at   timestamptz,
    CHECK ((kind = 'operator') = (seller_id IS NULL)),
    CHECK ((kind = 'operator' AND role IN ('reviewer', 'finance', 'admin'))
        OR (kind = 'seller_user' AND role IN ('admin', 'agent')))
);

-- A session is known by the SHA-256 digest of its cookie's token; the
-- token itself is never stored.
CREATE TABLE console_sessions (
    token_digest bytea PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
    csrf_token   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    -- The absolute end; the idle end is last_seen_at plus the idle timeout.
    expires_at   timestamptz NOT NULL
);
CREATE INDEX console_sessions_user_idx ON console_sessions (user_id);
CREATE INDEX console_sessions_expires_at_idx ON console_sessions (expires_at);

-- Failed sign-ins, counted per account and per address over a window to
-- throttle guessing; old rows are removed as new ones are written.
CREATE TABLE console_sign_in_failures (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email     text NOT NULL,
    address   text NOT NULL,
    failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX console_sign_in_failures_email_idx ON console_sign_in_failures (email, failed_at);
CREATE INDEX console_sign_in_failures_address_idx ON console_sign_in_failures (address, failed_at);

-- The audit log: every changing action in the console, appended only.
-- actor_email is kept beside actor_id so an entry still names its author
-- when the account is gone.
CREATE TABLE console_audit (
    id          uuid PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT now(),
    actor_id    uuid,
    actor_email text NOT NULL,
    action      text NOT NULL,
    target      text NOT NULL DEFAULT '',
    detail      text NOT NULL DEFAULT '',
    outcome     text NOT NULL CHECK (outcome IN ('succeeded', 'refused', 'failed')),
    address     text NOT NULL DEFAULT '',
    request_id  text NOT NULL DEFAULT ''
);
CREATE INDEX console_audit_at_idx ON console_audit (at DESC, id DESC);
CREATE INDEX console_audit_target_idx ON console_audit (target, at, id);

-- +goose StatementBegin
CREATE FUNCTION refuse_console_audit_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'console_audit is append-only: % refused', TG_OP;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER console_audit_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON console_audit
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_console_audit_change();

-- The review queue: offers waiting for an operator, oldest first.
CREATE INDEX offers_in_review_idx ON offers (created_at, id) WHERE status = 'pending_review';

-- +goose Down
DROP INDEX offers_in_review_idx;
DROP TABLE console_audit;
DROP FUNCTION refuse_console_audit_change();
DROP TABLE console_sign_in_failures;
DROP TABLE console_sessions;
DROP TABLE console_users;
