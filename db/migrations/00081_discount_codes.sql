-- +goose Up
-- A seller's discount codes: a percentage off the monthly rent or an
-- amount off, within an optional validity window, usable up to an
-- optional number of offers.
CREATE TABLE discount_codes (
    id               uuid PRIMARY KEY,
    seller_id        uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    code             text NOT NULL,
    description      text NOT NULL DEFAULT '',
    -- Percent x 100 (1000 = 10 %), or an amount in the seller's currency.
    percent_off      integer CHECK (percent_off BETWEEN 1 AND 10000),
    amount_off_net   bigint CHECK (amount_off_net > 0),
    amount_off_gross bigint CHECK (amount_off_gross >= amount_off_net),
    currency         text NOT NULL,
    valid_from       timestamptz,
    valid_until      timestamptz,
    usage_limit      integer CHECK (usage_limit > 0),
    times_used       integer NOT NULL DEFAULT 0,
    active           boolean NOT NULL DEFAULT true,
    created_at       timestamptz NOT NULL DEFAULT now(),
    deactivated_at   timestamptz,
    CHECK ((percent_off IS NULL) <> (amount_off_net IS NULL)),
    CHECK ((amount_off_net IS NULL) = (amount_off_gross IS NULL)),
    CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until > valid_from),
    -- The counter never passes the limit, whatever races redeem.
    CHECK (usage_limit IS NULL OR times_used <= usage_limit)
);
-- Codes compare without regard to case; an active code is unique per
-- seller, a deactivated one frees its code for a new one.
CREATE UNIQUE INDEX discount_codes_active_code_key ON discount_codes (seller_id, upper(code)) WHERE active;
CREATE INDEX discount_codes_seller_code_idx ON discount_codes (seller_id, upper(code), created_at DESC);
CREATE INDEX discount_codes_seller_created_idx ON discount_codes (seller_id, created_at, id);

-- One row per offer a code was applied to: a code counts once per offer.
CREATE TABLE discount_redemptions (
    discount_code_id uuid NOT NULL REFERENCES discount_codes (id) ON DELETE CASCADE,
    offer_id         uuid NOT NULL REFERENCES offers (id) ON DELETE CASCADE,
    redeemed_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (discount_code_id, offer_id)
);
CREATE INDEX discount_redemptions_offer_idx ON discount_redemptions (offer_id);

-- +goose Down
DROP TABLE discount_redemptions;
DROP TABLE discount_codes;
