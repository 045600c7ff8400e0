-- +goose Up
-- Collections (issue 24): a daily run picks the installments and charges
-- owed on its collection date, submits each as an item, and writes the
-- items into one pain.008 file per creditor account and scheme; bank
-- returns settle or return the items.

-- One run per run date: a repeated or resumed run finds its row.
CREATE TABLE collection_runs (
    id              uuid PRIMARY KEY,
    run_date        date NOT NULL UNIQUE,
    collection_date date NOT NULL,
    -- planned: its items are submitted; written: its files are stored.
    status          text NOT NULL DEFAULT 'planned' CHECK (status IN ('planned', 'written')),
    started_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz
);

-- A pain.008 file: one per run, creditor account and scheme. Its id is
-- derived from the run and the account, so a rewritten file keeps its id
-- and message id. The document itself is in the blob store under blob_key.
CREATE TABLE collection_files (
    id                 uuid PRIMARY KEY,
    run_id             uuid NOT NULL REFERENCES collection_runs (id),
    contractual_entity text NOT NULL,
    creditor_id        text NOT NULL,
    scheme             text NOT NULL CHECK (scheme IN ('CORE', 'B2B')),
    message_id         text NOT NULL UNIQUE,
    sequence_types     text[] NOT NULL,
    nb_of_txs          integer NOT NULL CHECK (nb_of_txs > 0),
    ctrl_sum           bigint NOT NULL CHECK (ctrl_sum > 0),
    blob_key           text NOT NULL,
    size               bigint NOT NULL,
    sha256             text NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now()
);

-- One collection of an installment or a charge. file_id is set once the
-- run's file holding it is stored.
CREATE TABLE collection_items (
    id                 uuid PRIMARY KEY,
    run_id             uuid NOT NULL REFERENCES collection_runs (id),
    file_id            uuid REFERENCES collection_files (id),
    contract_id        uuid NOT NULL REFERENCES rental_contracts (id),
    installment_number integer,
    charge_id          uuid REFERENCES contract_charges (id),
    mandate_id         uuid NOT NULL,
    contractual_entity text NOT NULL,
    creditor_id        text NOT NULL,
    scheme             text NOT NULL CHECK (scheme IN ('CORE', 'B2B')),
    attempt            integer NOT NULL CHECK (attempt BETWEEN 1 AND 99),
    end_to_end_id      text NOT NULL UNIQUE,
    amount             bigint NOT NULL CHECK (amount > 0),
    sequence_type      text NOT NULL CHECK (sequence_type IN ('FRST', 'RCUR')),
    status             text NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'paid', 'returned')),
    reason             text NOT NULL DEFAULT '',
    settled_at         timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    CHECK ((installment_number IS NULL) <> (charge_id IS NULL)),
    UNIQUE (contract_id, installment_number, attempt),
    UNIQUE (charge_id, attempt)
);
-- At most one open collection of an installment or a charge: a repeated
-- or resumed run inserts nothing for what is already being collected.
CREATE UNIQUE INDEX collection_items_open_installment_idx ON collection_items (contract_id, installment_number)
    WHERE status = 'submitted' AND installment_number IS NOT NULL;
CREATE UNIQUE INDEX collection_items_open_charge_idx ON collection_items (charge_id)
    WHERE status = 'submitted' AND charge_id IS NOT NULL;
-- A run's file writer reads its items by file group and sequence type.
CREATE INDEX collection_items_run_idx ON collection_items (run_id, contractual_entity, creditor_id, scheme, sequence_type, end_to_end_id);
-- The sequence type asks whether a mandate was collected before.
CREATE INDEX collection_items_mandate_idx ON collection_items (mandate_id) WHERE status IN ('submitted', 'paid');

-- +goose Down
DROP TABLE collection_items;
DROP TABLE collection_files;
DROP TABLE collection_runs;
