-- +goose Up
-- Identity verification sessions: opened when the customer asks for a
-- verification link, decided by the provider's signed callback.
CREATE TABLE idv_sessions (
    id                 uuid PRIMARY KEY,
    seller_id          uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    offer_id           uuid NOT NULL REFERENCES offers (id) ON DELETE CASCADE,
    provider           text NOT NULL,
    status             text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'failed')),
    return_url         text NOT NULL,
    -- The link to the provider works until then; a session still pending
    -- after it no longer counts.
    link_expires_at    timestamptz NOT NULL,
    provider_reference text NOT NULL DEFAULT '',
    reason             text NOT NULL DEFAULT '',
    created_at         timestamptz NOT NULL DEFAULT now(),
    decided_at         timestamptz
);
CREATE INDEX idv_sessions_offer_idx ON idv_sessions (offer_id, created_at DESC, id DESC);

-- +goose Down
DROP TABLE idv_sessions;
