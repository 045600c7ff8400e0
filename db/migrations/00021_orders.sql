-- +goose Up
-- An order as the Seller API shows it, created in the transaction that
-- accepts its offer. The workflow order/{id} owns status and canceled_at;
-- document holds the copied offer data (customer, lines, shipping, seller).
CREATE TABLE orders (
    id                     uuid PRIMARY KEY,
    seller_id              uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    offer_id               uuid NOT NULL UNIQUE REFERENCES offers (id),
    seller_offer_reference text NOT NULL,
    status                 text NOT NULL,
    created_by             text NOT NULL DEFAULT '',
    partner                boolean NOT NULL DEFAULT false,
    search_text            text NOT NULL DEFAULT '',
    agent_name             text NOT NULL DEFAULT '',
    company_name           text NOT NULL DEFAULT '',
    full_name              text NOT NULL DEFAULT '',
    document               jsonb NOT NULL,
    metadata               jsonb NOT NULL DEFAULT '{}',
    offer_created_at       timestamptz NOT NULL,
    canceled_at            timestamptz,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_seller_id_idx ON orders (seller_id, id);
CREATE INDEX orders_seller_created_at_idx ON orders (seller_id, created_at, id);
CREATE INDEX orders_search_text_idx ON orders USING gin (search_text gin_trgm_ops);

-- One asset per unit of each ordered line and subline.
CREATE TABLE order_assets (
    id                        uuid PRIMARY KEY,
    order_id                  uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    seller_id                 uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    position                  integer NOT NULL,
    product_id                uuid,
    title                     text NOT NULL,
    seller_product_references jsonb NOT NULL,
    -- Assets with a rent option must be shipped with a serial number.
    requires_serial_number    boolean NOT NULL,
    status                    text NOT NULL DEFAULT 'created',
    serial_number             text,
    tracking_url              text,
    shipment_id               uuid,
    UNIQUE (order_id, position)
);
-- A serial number is shipped once per seller.
CREATE UNIQUE INDEX order_assets_serial_number_key ON order_assets (seller_id, serial_number)
    WHERE serial_number <> '';

CREATE TABLE shipments (
    id           uuid PRIMARY KEY,
    order_id     uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    seller_id    uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    tracking_url text NOT NULL DEFAULT '',
    metadata     jsonb NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shipments_order_idx ON shipments (order_id, created_at);

-- Confirming an order activates one rental contract per rented line.
CREATE TABLE rental_contracts (
    id              uuid PRIMARY KEY,
    order_id        uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    seller_id       uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    line_position   integer NOT NULL,
    product_id      uuid,
    quantity        integer NOT NULL,
    start_date      date NOT NULL,
    duration_months integer NOT NULL,
    monthly_net     bigint NOT NULL,
    monthly_gross   bigint NOT NULL,
    currency        text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (order_id, line_position)
);

-- +goose Down
DROP TABLE rental_contracts;
DROP TABLE shipments;
DROP TABLE order_assets;
DROP TABLE orders;
