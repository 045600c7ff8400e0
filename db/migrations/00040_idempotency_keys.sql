-- +goose Up
-- Requests sent with an Idempotency-Key (README "Retries"), one row per
-- caller and key, kept 24 hours. While its first request runs the row is
-- in flight (status NULL), leased to the process serving it, which renews
-- the lease; a retry that finds the lease run out takes the request over.
-- Once the request completed, the row holds the outcome every retry gets.
CREATE TABLE idempotency_keys (
    -- Whose key it is ("seller/<id>"): keys are scoped to the caller.
    caller       text NOT NULL,
    key          text NOT NULL,
    -- The request the key was first used for: its method and path name it
    -- in refusals; the fingerprint (SHA-256 of method, path, query and
    -- body) tells a retry from another request.
    method       text NOT NULL,
    path         text NOT NULL,
    fingerprint  bytea NOT NULL,
    -- The recovery point: the id of the resource the request creates (and
    -- of the workflow update it sends), the same on every retry.
    resource_id  uuid NOT NULL,
    -- Which attempt runs the request, and until when it is trusted to.
    lease_token  uuid,
    leased_until timestamptz,
    -- The outcome once recorded; the body is sealed (it may hold a webhook
    -- endpoint's secret).
    status       integer,
    content_type text,
    body         bytea,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (caller, key),
    CHECK ((status IS NULL) = (lease_token IS NOT NULL))
);
-- The purge deletes expired keys oldest first.
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);

-- +goose Down
DROP TABLE idempotency_keys;
