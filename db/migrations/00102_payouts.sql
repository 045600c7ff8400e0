-- +goose Up
-- Seller payouts (issue 24): when an order is completed Tenure owes its
-- seller the financed amount (the rented lines' net purchase price minus
-- the financing fee); a daily batch pays what is owed by SEPA credit
-- transfer, one pain.001 file per contractual entity's account.

-- The seller's account payouts go to (set by operators with `tenure
-- sellers set-payout-account`); a seller without one is skipped.
ALTER TABLE sellers
    ADD COLUMN payout_iban text,
    ADD COLUMN payout_bic  text NOT NULL DEFAULT '';

-- A batch's credit transfer file, kept as sent to the bank.
CREATE TABLE payout_files (
    id                 uuid PRIMARY KEY,
    contractual_entity text NOT NULL,
    run_date           date NOT NULL,
    message_id         text NOT NULL UNIQUE,
    transfers          integer NOT NULL,
    total              bigint NOT NULL,
    content            bytea NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payout_files_run_date_idx ON payout_files (run_date, contractual_entity);

CREATE TABLE payouts (
    id                 uuid PRIMARY KEY,
    seller_id          uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    order_id           uuid NOT NULL UNIQUE REFERENCES orders (id) ON DELETE CASCADE,
    contractual_entity text NOT NULL,
    currency           text NOT NULL,
    financed           bigint NOT NULL,
    fee                bigint NOT NULL,
    amount             bigint NOT NULL CHECK (amount = financed - fee AND amount >= 0),
    status             text NOT NULL DEFAULT 'owed' CHECK (status IN ('owed', 'sent')),
    file_id            uuid REFERENCES payout_files (id),
    execution_date     date,
    created_at         timestamptz NOT NULL DEFAULT now(),
    sent_at            timestamptz,
    CHECK ((status = 'sent') = (file_id IS NOT NULL))
);
-- The list (a seller's pages, by status) and the batch's pick.
CREATE INDEX payouts_seller_created_at_idx ON payouts (seller_id, created_at, id);
CREATE INDEX payouts_seller_status_idx ON payouts (seller_id, status, created_at, id);
CREATE INDEX payouts_owed_idx ON payouts (contractual_entity, created_at) WHERE status = 'owed';

-- +goose Down
DROP TABLE payouts;
DROP TABLE payout_files;
ALTER TABLE sellers DROP COLUMN payout_bic, DROP COLUMN payout_iban;
