-- +goose Up
-- Whether a seller's customers must give a payment method (a SEPA
-- direct-debit mandate) before they accept an offer. The operator decides
-- it (tenure sellers set-payment-method-required); sellers created in a
-- sandbox deployment start with true, so merchants see the step.
ALTER TABLE sellers ADD COLUMN payment_method_required boolean NOT NULL DEFAULT false;

-- The SEPA direct-debit mandate an offer's customer gave at checkout: one
-- per offer, replaced while the offer is open, signed (signed_at) in the
-- transaction that accepts the offer. The IBAN is kept sealed with the
-- mandates.iban_keys ring, bound to the mandate's id; iban_masked is what
-- people may see. The creditor's identifier and scheme are copied from
-- the configuration when the mandate is given, as the customer saw them.
CREATE TABLE mandates (
    id                 uuid PRIMARY KEY,
    offer_id           uuid NOT NULL UNIQUE REFERENCES offers (id) ON DELETE CASCADE,
    seller_id          uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    contractual_entity text NOT NULL,
    creditor_id        text NOT NULL,
    -- At most 35 characters of the SEPA identifier set (sepa.MandateReferenceFor).
    reference          text NOT NULL CHECK (reference ~ '^[A-Za-z0-9/?:().,''+ -]{1,35}$'),
    scheme             text NOT NULL CHECK (scheme IN ('CORE', 'B2B')),
    account_holder     text NOT NULL CHECK (account_holder <> ''),
    iban_sealed        bytea NOT NULL,
    iban_masked        text NOT NULL,
    bic                text NOT NULL DEFAULT '',
    -- The signature date: the offer's acceptance.
    signed_at          timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    UNIQUE (creditor_id, reference)
);
CREATE INDEX mandates_seller_id_idx ON mandates (seller_id, id);

-- +goose Down
DROP TABLE mandates;
ALTER TABLE sellers DROP COLUMN payment_method_required;
