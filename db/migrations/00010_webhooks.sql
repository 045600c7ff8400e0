-- +goose Up
-- A seller's webhook endpoints. Signing secrets are sealed with AES-GCM
-- (webhooks.secret_key) because Tenure must read them back to sign; during
-- a rotation the previous secret keeps signing until it expires. Deleted
-- endpoints stay (without secrets) so their delivery history stays readable.
CREATE TABLE webhook_endpoints (
    id                         uuid PRIMARY KEY,
    seller_id                  uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    url                        text NOT NULL,
    -- Subscribed event types; empty means every type.
    events                     text[] NOT NULL DEFAULT '{}',
    description                text NOT NULL DEFAULT '',
    secret                     bytea NOT NULL,
    previous_secret            bytea,
    previous_secret_expires_at timestamptz,
    disabled_at                timestamptz,
    disabled_reason            text,
    created_at                 timestamptz NOT NULL DEFAULT now(),
    updated_at                 timestamptz NOT NULL DEFAULT now(),
    deleted_at                 timestamptz
);
CREATE INDEX webhook_endpoints_seller_idx ON webhook_endpoints (seller_id, id) WHERE deleted_at IS NULL;

-- The outbox: one row per event, written in the transaction of the change
-- that causes it. dispatched_at is set once its deliveries are started; the
-- relay picks up rows a crash left undispatched.
CREATE TABLE events (
    id            uuid PRIMARY KEY,
    seller_id     uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    type          text NOT NULL,
    object_id     uuid NOT NULL,
    -- Set for events meant for one endpoint only (ping); NULL fans out to
    -- every subscribed endpoint.
    endpoint_id   uuid REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    -- json, not jsonb: the body is sent byte for byte as it was recorded.
    payload       json NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    dispatched_at timestamptz
);
CREATE INDEX events_seller_created_idx ON events (seller_id, created_at, id);
CREATE INDEX events_seller_object_idx ON events (seller_id, object_id, created_at);
CREATE INDEX events_undispatched_idx ON events (created_at) WHERE dispatched_at IS NULL;

-- One delivery per event and subscribed endpoint. run counts the delivery
-- runs (1, then one more per redelivery).
CREATE TABLE webhook_deliveries (
    event_id        uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    seller_id       uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
    run             integer NOT NULL DEFAULT 1,
    attempts        integer NOT NULL DEFAULT 0,
    last_attempt_at timestamptz,
    delivered_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (endpoint_id) WHERE status = 'pending';

-- Every HTTP attempt. The row is written (outcome 'sending') before the
-- request goes out, so a retried activity finds it and does not send again.
CREATE TABLE webhook_attempts (
    event_id         uuid NOT NULL,
    endpoint_id      uuid NOT NULL,
    run              integer NOT NULL,
    attempt          integer NOT NULL,
    started_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz,
    outcome          text NOT NULL DEFAULT 'sending'
                     CHECK (outcome IN ('sending', 'delivered', 'failed', 'gone', 'interrupted')),
    status_code      integer,
    latency_ms       integer,
    error_class      text,
    response_excerpt text,
    PRIMARY KEY (event_id, endpoint_id, run, attempt),
    FOREIGN KEY (event_id, endpoint_id) REFERENCES webhook_deliveries (event_id, endpoint_id) ON DELETE CASCADE
);

-- +goose Down
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE events;
DROP TABLE webhook_endpoints;
