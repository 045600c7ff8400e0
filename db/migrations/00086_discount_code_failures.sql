-- +goose Up
-- Failed discount code attempts: validations and acceptances naming a code
-- that cannot be applied. Each counts against its offer's and its client
-- address's budgets (ratelimit.discount_codes) for one window, in every API
-- process alike. An attempt is recorded before its code is checked and
-- removed when the code applies, so concurrent attempts cannot overdraw a
-- budget; an attempt refused for a spent budget is not recorded, so the
-- window slides on from the failures. The next attempt purges rows that
-- have left the window.
CREATE TABLE discount_code_failures (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    offer_id  uuid NOT NULL REFERENCES offers (id) ON DELETE CASCADE,
    -- The client address as the rate limits count it (IPv6 by /64).
    address   text NOT NULL,
    failed_at timestamptz NOT NULL
);
CREATE INDEX discount_code_failures_offer_idx ON discount_code_failures (offer_id, failed_at);
CREATE INDEX discount_code_failures_address_idx ON discount_code_failures (address, failed_at);
CREATE INDEX discount_code_failures_failed_at_idx ON discount_code_failures (failed_at);

-- When an offer's seller was last told that attempts on it were refused
-- (event offer.discount_attempts_exceeded): once per window.
CREATE TABLE discount_code_lockouts (
    offer_id    uuid PRIMARY KEY REFERENCES offers (id) ON DELETE CASCADE,
    reported_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE discount_code_lockouts;
DROP TABLE discount_code_failures;
