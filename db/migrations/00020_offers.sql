-- +goose Up
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- An offer as the Seller API shows it. The workflow offer/{id} owns status
-- and superseded_by_id; document holds everything else the API returns,
-- built and priced when the offer was created.
CREATE TABLE offers (
    id                     uuid PRIMARY KEY,
    seller_id              uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    seller_offer_reference text NOT NULL,
    status                 text NOT NULL,
    sales_channel          text NOT NULL,
    -- created_by is the sales agent's e-mail (lower case), for the
    -- created_by filter; partner marks offers created for a partner.
    created_by             text NOT NULL DEFAULT '',
    partner                boolean NOT NULL DEFAULT false,
    -- search_text is what the `query` parameter matches: the reference,
    -- the customer's and the agent's names and e-mails, the company.
    search_text            text NOT NULL DEFAULT '',
    document               jsonb NOT NULL,
    -- Where the checkout sends the customer; not part of the Seller API's offer.
    exit_redirect          text NOT NULL DEFAULT '',
    success_redirect       text NOT NULL DEFAULT '',
    -- Deferred: an edit voids the old offer, naming the new one, before it
    -- inserts the new one (the reference may belong to one active offer).
    superseded_by_id       uuid REFERENCES offers (id) DEFERRABLE INITIALLY DEFERRED,
    expires_at             timestamptz NOT NULL,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);
-- A reference belongs to at most one active offer of a seller; accepted
-- offers keep it, because their order carries it.
CREATE UNIQUE INDEX offers_active_reference_key ON offers (seller_id, seller_offer_reference)
    WHERE status IN ('created', 'pending_review', 'accepted');
CREATE INDEX offers_seller_id_idx ON offers (seller_id, id);
CREATE INDEX offers_seller_created_at_idx ON offers (seller_id, created_at, id);
CREATE INDEX offers_seller_expires_at_idx ON offers (seller_id, expires_at, id);
CREATE INDEX offers_seller_status_idx ON offers (seller_id, status, id);
CREATE INDEX offers_seller_reference_idx ON offers (seller_id, seller_offer_reference, created_at DESC);
CREATE INDEX offers_search_text_idx ON offers USING gin (search_text gin_trgm_ops);

-- +goose Down
DROP TABLE offers;
