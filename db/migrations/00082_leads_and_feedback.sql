-- +goose Up
-- Contact details visitors leave through POST /customer/crm/contacts, for
-- the operator (`tenure leads list`). Not tied to a seller.
CREATE TABLE leads (
    id             uuid PRIMARY KEY,
    email          text NOT NULL,
    company        text NOT NULL DEFAULT '',
    first_name     text NOT NULL DEFAULT '',
    last_name      text NOT NULL DEFAULT '',
    phone          text NOT NULL DEFAULT '',
    website        text NOT NULL DEFAULT '',
    client_address text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX leads_created_at_idx ON leads (created_at, id);

-- Customers' remarks on the accessories of an offer line.
CREATE TABLE accessory_feedback (
    id                uuid PRIMARY KEY,
    seller_id         uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    offer_id          uuid NOT NULL REFERENCES offers (id) ON DELETE CASCADE,
    offer_line_id     text NOT NULL,
    customer_feedback text NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX accessory_feedback_offer_idx ON accessory_feedback (offer_id, created_at);

-- +goose Down
DROP TABLE accessory_feedback;
DROP TABLE leads;
