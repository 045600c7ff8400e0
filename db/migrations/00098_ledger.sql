-- +goose Up
-- The double-entry ledger. A journal is one money movement (an invoice
-- issued, a collection submitted, paid or returned, a fee, interest, a
-- write-off, a seller's purchase or payout), posted in the transaction of
-- the change that caused it. key names the cause, so a retried activity
-- posts nothing twice. An entry's amount is in cents of the journal's
-- currency: a debit is positive, a credit negative; contract_id and
-- seller_id scope the accounts kept per contract (the customer's
-- receivable) and per seller (what Tenure owes it). They carry no foreign
-- key: the books outlive the rows they speak of.
CREATE TABLE ledger_journals (
    id        uuid PRIMARY KEY,
    key       text NOT NULL UNIQUE,
    kind      text NOT NULL,
    currency  text NOT NULL,
    posted_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ledger_entries (
    journal_id  uuid NOT NULL REFERENCES ledger_journals (id),
    line        integer NOT NULL,
    account     text NOT NULL,
    contract_id uuid,
    seller_id   uuid,
    amount      bigint NOT NULL CHECK (amount <> 0),
    PRIMARY KEY (journal_id, line)
);
CREATE INDEX ledger_entries_contract_idx ON ledger_entries (contract_id, account) WHERE contract_id IS NOT NULL;
CREATE INDEX ledger_entries_seller_idx ON ledger_entries (seller_id, account) WHERE seller_id IS NOT NULL;

-- A journal balances when its transaction commits, whatever code wrote it:
-- the check is deferred to the commit, after all of its entries are in.
-- +goose StatementBegin
CREATE FUNCTION ledger_journal_balances() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    total bigint;
    entries integer;
BEGIN
    SELECT coalesce(sum(amount), 0), count(*) INTO total, entries FROM ledger_entries WHERE journal_id = NEW.id;
    IF entries < 2 OR total <> 0 THEN
        RAISE EXCEPTION 'ledger journal % (%) does not balance: % entries summing to %', NEW.key, NEW.id, entries, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE CONSTRAINT TRIGGER ledger_journals_balance
AFTER INSERT ON ledger_journals
DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION ledger_journal_balances();

-- The books are append-only: a correction is a journal of its own.
-- +goose StatementBegin
CREATE FUNCTION ledger_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER ledger_journals_append_only
BEFORE UPDATE OR DELETE ON ledger_journals
FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER ledger_entries_append_only
BEFORE UPDATE OR DELETE ON ledger_entries
FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- +goose Down
DROP TABLE ledger_entries;
DROP TABLE ledger_journals;
DROP FUNCTION ledger_append_only();
DROP FUNCTION ledger_journal_balances();
