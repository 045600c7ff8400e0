-- +goose Up
-- The merchant portal's sales pages (issue 25): a seller user's sales
-- profile, and the index the orders list filtered by status reads.

-- A seller user's name and phone as customers see them on the offers the
-- user makes; kept apart from console_users, which holds what signs in.
CREATE TABLE seller_user_profiles (
    user_id    uuid PRIMARY KEY REFERENCES console_users (id) ON DELETE CASCADE,
    full_name  text NOT NULL CHECK (full_name <> ''),
    phone      text NOT NULL CHECK (phone <> ''),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- A seller's orders of one status, newest first.
CREATE INDEX orders_seller_status_created_at_idx ON orders (seller_id, status, created_at, id);

-- +goose Down
DROP INDEX orders_seller_status_created_at_idx;
DROP TABLE seller_user_profiles;
