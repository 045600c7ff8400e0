-- +goose Up
-- Rental contracts become entities with a workflow of their own
-- (contract/{id}): their status, their rental as contracts.RentalOf makes
-- it (the line's monthly amount for its quantity with services and
-- discount, its tax rate, the purchase price the buy-out is priced from),
-- the term from the shipment of the line's last asset (start_date is
-- NULL until then), the end and notice dates of the current term, the
-- end-of-term options priced at the notice, the extensions taken, the
-- sandbox clock's offset and the day the contract ended.
--
-- Rows written before contracts ran hold the per-unit monthly price and
-- the confirmation day as start: they are marked legacy, their start is
-- cleared, and the worker's backfill starts their workflows, whose opening
-- recomputes them from the order document.
ALTER TABLE rental_contracts
    ADD COLUMN offer_id               uuid REFERENCES offers (id),
    ADD COLUMN seller_offer_reference text NOT NULL DEFAULT '',
    ADD COLUMN status                 text NOT NULL DEFAULT 'awaiting_delivery',
    ADD COLUMN tax_rate               bigint NOT NULL DEFAULT 0,
    ADD COLUMN purchase_net           bigint NOT NULL DEFAULT 0,
    ADD COLUMN legacy                 boolean NOT NULL DEFAULT false,
    ADD COLUMN end_date               date,
    ADD COLUMN notice_date            date,
    ADD COLUMN end_of_term            jsonb,
    ADD COLUMN extensions             jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN clock_offset_seconds   bigint NOT NULL DEFAULT 0,
    ADD COLUMN ended_on               date,
    ADD COLUMN ended_at               timestamptz,
    ADD COLUMN updated_at             timestamptz NOT NULL DEFAULT now(),
    ALTER COLUMN start_date DROP NOT NULL;

UPDATE rental_contracts c
SET offer_id = o.offer_id, seller_offer_reference = o.seller_offer_reference, legacy = true, start_date = NULL
FROM orders o
WHERE o.id = c.order_id;

ALTER TABLE rental_contracts ALTER COLUMN offer_id SET NOT NULL;

-- The contract lists: pages of a seller's contracts, by status, ending
-- before a day; (order_id, line_position) serves the order filter.
CREATE INDEX rental_contracts_seller_created_at_idx ON rental_contracts (seller_id, created_at, id);
CREATE INDEX rental_contracts_seller_status_idx ON rental_contracts (seller_id, status, created_at, id);
CREATE INDEX rental_contracts_seller_end_date_idx ON rental_contracts (seller_id, end_date);
-- The backfill's rows.
CREATE INDEX rental_contracts_legacy_idx ON rental_contracts (id) WHERE legacy;

-- The assets a contract rents: the line's units and those of the sublines
-- rented with it; the term starts when the last of them is shipped.
ALTER TABLE order_assets ADD COLUMN contract_id uuid REFERENCES rental_contracts (id) ON DELETE SET NULL;
CREATE INDEX order_assets_contract_idx ON order_assets (contract_id) WHERE contract_id IS NOT NULL;

-- A seller's own buy-out price, in basis points of the net purchase price;
-- NULL takes the deployment's (contracts.residual_basis_points).
ALTER TABLE sellers ADD COLUMN contract_residual_basis_points bigint
    CHECK (contract_residual_basis_points BETWEEN 0 AND 10000);

-- +goose Down
ALTER TABLE sellers DROP COLUMN contract_residual_basis_points;
DROP INDEX order_assets_contract_idx;
ALTER TABLE order_assets DROP COLUMN contract_id;
DROP INDEX rental_contracts_legacy_idx;
DROP INDEX rental_contracts_seller_end_date_idx;
DROP INDEX rental_contracts_seller_status_idx;
DROP INDEX rental_contracts_seller_created_at_idx;
UPDATE rental_contracts SET start_date = created_at::date WHERE start_date IS NULL;
ALTER TABLE rental_contracts
    ALTER COLUMN start_date SET NOT NULL,
    DROP COLUMN updated_at,
    DROP COLUMN ended_at,
    DROP COLUMN ended_on,
    DROP COLUMN clock_offset_seconds,
    DROP COLUMN extensions,
    DROP COLUMN end_of_term,
    DROP COLUMN notice_date,
    DROP COLUMN end_date,
    DROP COLUMN legacy,
    DROP COLUMN purchase_net,
    DROP COLUMN tax_rate,
    DROP COLUMN status,
    DROP COLUMN seller_offer_reference,
    DROP COLUMN offer_id;
