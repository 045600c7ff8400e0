-- +goose Up
-- The decision log: every decision the risk rules made on an offer under
-- review, with the snapshot of what they saw (package risk's Snapshot), the
-- rule set's version, the outcome, the rule and its reason (code and texts
-- in en, de, nl), and what the shadow rule set would have decided. It is
-- written in the transaction that acts on the decision, so every decision
-- acted on is logged and none is logged that was not. One per offer.
--
-- A decision that accepts or leaves the offer to an operator also reserves
-- reserved_net of the company's exposure: the company (company_keys: its
-- VAT id, registration number, and normalised name and address) owes it
-- while the offer is under review or accepted and its order was not
-- canceled or rejected (query CompanyExposure). A declined, voided or
-- expired offer therefore releases it in the transaction of that status.
CREATE TABLE risk_decisions (
    id                      uuid PRIMARY KEY,
    offer_id                uuid NOT NULL UNIQUE REFERENCES offers (id) ON DELETE CASCADE,
    seller_id               uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    snapshot_version        integer NOT NULL,
    snapshot                jsonb NOT NULL,
    company_keys            text[] NOT NULL,
    currency                text NOT NULL,
    reserved_net            bigint NOT NULL CHECK (reserved_net >= 0),
    rule_set_version        text NOT NULL,
    outcome                 text NOT NULL CHECK (outcome IN ('accept', 'decline', 'manual')),
    rule_id                 text NOT NULL,
    -- {code, en, de, nl}
    reason                  jsonb NOT NULL,
    -- Why rule_id's condition could not be evaluated ('' when it was).
    error                   text NOT NULL DEFAULT '',
    -- NULL when no shadow rule set ran.
    shadow_rule_set_version text,
    shadow_outcome          text CHECK (shadow_outcome IN ('accept', 'decline', 'manual')),
    shadow_rule_id          text,
    shadow_reason           jsonb,
    shadow_error            text,
    decided_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX risk_decisions_decided_at_idx ON risk_decisions (decided_at, id);
CREATE INDEX risk_decisions_outcome_idx ON risk_decisions (outcome, decided_at, id);
CREATE INDEX risk_decisions_company_keys_idx ON risk_decisions USING gin (company_keys) WHERE reserved_net > 0;

-- +goose Down
DROP TABLE risk_decisions;
