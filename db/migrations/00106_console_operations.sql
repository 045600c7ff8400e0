-- +goose Up
-- The console's operations: four-eyes in the review queue, and the
-- sellers' list.
--
-- Four-eyes in the console's review queue: an operator's acceptance of an
-- offer above console.four_eyes_above_cents is kept here as the first
-- approval, and the offer stays under review until a second, different
-- operator confirms it (then the offer's workflow accepts it) or declines
-- the offer. One first approval per offer; the audit log keeps both steps.
-- approved_email is kept beside approved_by so the queue still names the
-- operator when the account is gone.
CREATE TABLE offer_approvals (
    offer_id       uuid PRIMARY KEY REFERENCES offers (id) ON DELETE CASCADE,
    approved_by    uuid REFERENCES console_users (id) ON DELETE SET NULL,
    approved_email text NOT NULL,
    -- The net purchase price the operator approved, in cents.
    total_net      bigint NOT NULL,
    currency       text NOT NULL,
    approved_at    timestamptz NOT NULL DEFAULT now()
);

-- The console's list of sellers, by name.
CREATE INDEX sellers_name_idx ON sellers (name, id);

-- +goose Down
DROP INDEX sellers_name_idx;
DROP TABLE offer_approvals;
