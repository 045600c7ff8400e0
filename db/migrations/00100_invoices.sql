-- +goose Up
-- Invoices (issue 24): one per order and month for the order's
-- installments due that month, one per charge. Issued in the transaction
-- in which an installment falls due or a charge is added, numbered from
-- invoice_counters in that transaction, rendered (PDF and CII e-invoice)
-- and stored in invoice_documents, so an invoice never exists without its
-- number and documents, and a number never without its invoice.
CREATE TABLE invoices (
    id                 uuid PRIMARY KEY,
    seller_id          uuid NOT NULL REFERENCES sellers (id) ON DELETE CASCADE,
    order_id           uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    contractual_entity text NOT NULL,
    number             text NOT NULL,
    kind               text NOT NULL CHECK (kind IN ('installments', 'charge')),
    -- The month an installments invoice covers (its first day); NULL for a
    -- charge's.
    period             date,
    issue_date         date NOT NULL,
    service_from       date NOT NULL,
    service_to         date NOT NULL,
    currency           text NOT NULL,
    net                bigint NOT NULL,
    tax                bigint NOT NULL,
    gross              bigint NOT NULL CHECK (gross = net + tax),
    language           text NOT NULL,
    status             text NOT NULL DEFAULT 'issued',
    collection_date    date NOT NULL,
    mandate_reference  text NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    UNIQUE (contractual_entity, number)
);
-- One installments invoice per order and month.
CREATE UNIQUE INDEX invoices_order_period_idx ON invoices (order_id, period) WHERE kind = 'installments';
-- The list filters: a seller's pages, by order, by status.
CREATE INDEX invoices_seller_created_at_idx ON invoices (seller_id, created_at, id);
CREATE INDEX invoices_seller_status_idx ON invoices (seller_id, status, created_at, id);
CREATE INDEX invoices_order_idx ON invoices (order_id, created_at, id);

-- What an invoice bills: an installment of a contract or a charge.
CREATE TABLE invoice_lines (
    invoice_id         uuid NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
    position           integer NOT NULL,
    contract_id        uuid NOT NULL REFERENCES rental_contracts (id) ON DELETE CASCADE,
    installment_number integer,
    charge_id          uuid REFERENCES contract_charges (id) ON DELETE CASCADE,
    description        text NOT NULL,
    quantity           bigint NOT NULL,
    service_from       date NOT NULL,
    service_to         date NOT NULL,
    net                bigint NOT NULL,
    tax_rate           bigint NOT NULL,
    tax                bigint NOT NULL,
    gross              bigint NOT NULL,
    PRIMARY KEY (invoice_id, position),
    CHECK ((installment_number IS NULL) <> (charge_id IS NULL))
);
-- The contract filter.
CREATE INDEX invoice_lines_contract_idx ON invoice_lines (contract_id, invoice_id);

-- An invoice's documents as issued: immutable, served as they were sent.
CREATE TABLE invoice_documents (
    invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
    format     text NOT NULL CHECK (format IN ('pdf', 'xml')),
    content    bytea NOT NULL,
    PRIMARY KEY (invoice_id, format)
);

-- The next invoice number of a contractual entity in a year. The row is
-- updated in the transaction that stores the invoice: the row lock orders
-- concurrent issuers and a rollback returns the number, so numbers have
-- no gaps (a sequence would leave them).
CREATE TABLE invoice_counters (
    contractual_entity text NOT NULL,
    year               integer NOT NULL,
    next               bigint NOT NULL,
    PRIMARY KEY (contractual_entity, year)
);

ALTER TABLE contract_installments ADD COLUMN invoice_id uuid REFERENCES invoices (id);
-- What a month's invoice picks: a contract's installments not invoiced
-- yet, by due date.
CREATE INDEX contract_installments_invoiceable_idx ON contract_installments (contract_id, due_date) WHERE invoice_id IS NULL;
ALTER TABLE contract_charges ADD COLUMN invoice_id uuid REFERENCES invoices (id);

-- +goose Down
DROP INDEX contract_installments_invoiceable_idx;
ALTER TABLE contract_charges DROP COLUMN invoice_id;
ALTER TABLE contract_installments DROP COLUMN invoice_id;
DROP TABLE invoice_counters;
DROP TABLE invoice_documents;
DROP TABLE invoice_lines;
DROP TABLE invoices;
