package collections_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/keyring"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// The tests' contractual entity and creditor identifier.
const (
	entity     = collectiontest.Entity
	creditorID = collectiontest.CreditorID
)

// env is a database with a runner over a blob directory.
type env struct {
	store  *db.Store
	runner *collections.Runner
	ring   *keyring.Ring
	seller uuid.UUID
}

// newEnv is a fresh database prepared for collections, a seller, and a
// runner.
func newEnv(t testing.TB) *env {
	t.Helper()
	store := testenv.Database(t)
	ring := collectiontest.Ring(t)
	e := &env{store: store, ring: ring, seller: uuid.Must(uuid.NewV7()), runner: collectiontest.Runner(t, store, ring)}
	e.exec(t, `INSERT INTO sellers (id, name) VALUES ($1, 'Seller')`, e.seller)
	return e
}

// exec runs a statement or fails the test.
func (e *env) exec(t testing.TB, sql string, args ...any) {
	t.Helper()
	if _, err := e.store.Pool.Exec(t.Context(), sql, args...); err != nil {
		t.Fatalf("%s: %v", strings.Fields(sql)[0], err)
	}
}

// contract is a contract of an order of an accepted offer, with the
// offer's mandate signed on a day under a scheme.
type contract struct {
	id, mandate uuid.UUID
}

// newContract writes a contract whose customer signed a mandate.
func (e *env) newContract(t testing.TB, signed civil.Date, scheme sepa.Scheme) contract {
	t.Helper()
	offer, order, c := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7()), contract{id: uuid.Must(uuid.NewV7())}
	e.exec(t, `INSERT INTO offers (id, seller_id, seller_offer_reference, status, sales_channel, document, expires_at)
VALUES ($1, $2, $3, 'accepted', 'online', '{}', now() + interval '30 days')`, offer, e.seller, "ref-"+offer.String())
	e.exec(t, `INSERT INTO orders (id, seller_id, offer_id, seller_offer_reference, status, document, offer_created_at)
VALUES ($1, $2, $3, $4, 'confirmed', '{}', now())`, order, e.seller, offer, "ref-"+offer.String())
	e.exec(t, `INSERT INTO rental_contracts (id, order_id, seller_id, offer_id, line_position, quantity, duration_months, monthly_net, monthly_gross, currency, start_date)
VALUES ($1, $2, $3, $4, 0, 1, 12, 10000, 11900, 'EUR', '2026-11-01')`, c.id, order, e.seller, offer)
	c.mandate = collectiontest.Mandate(t, e.store, e.ring, e.seller, offer, signed, scheme)
	return c
}

// installment writes an installment of a contract due on a day.
func (e *env) installment(t testing.TB, c contract, number int, due civil.Date, gross int64, status string) {
	t.Helper()
	e.exec(t, `INSERT INTO contract_installments (contract_id, number, period_from, period_to, due_date, currency, net, gross, tax_rate, status)
VALUES ($1, $2, $3, $3, $3, 'EUR', $4, $4, 0, $5)`, c.id, number, due.Midnight(time.UTC), gross, status)
	if status == "due" {
		collectiontest.Invoiced(t, e.store, c.id, number, gross)
	}
}

// installmentStatus reads an installment's status.
func (e *env) installmentStatus(t testing.TB, c contract, number int) string {
	t.Helper()
	var s string
	if err := e.store.Pool.QueryRow(t.Context(), `SELECT status FROM contract_installments WHERE contract_id = $1 AND number = $2`, c.id, number).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// run submits and writes the run of a day, checks every file against
// the pain.008 XSD and answers the files' documents.
func (e *env) run(t testing.TB, day civil.Date) (collections.Run, [][]byte) {
	t.Helper()
	run, err := e.runner.Submit(t.Context(), day)
	if err != nil {
		t.Fatalf("run of %s: %v", day, err)
	}
	files, err := e.runner.WriteFiles(t.Context(), run.ID)
	if err != nil {
		t.Fatalf("files of the run of %s: %v", day, err)
	}
	var docs [][]byte
	for _, f := range files {
		r, err := e.runner.Open(t.Context(), f)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(r); err != nil {
			t.Fatal(err)
		}
		r.Close()
		xmllint.Validate(t, pain008Schema(t), buf.Bytes())
		docs = append(docs, buf.Bytes())
	}
	e.checkLedger(t)
	return run, docs
}

// checkLedger fails the test when the ledger's invariants do not hold.
func (e *env) checkLedger(t testing.TB) {
	t.Helper()
	if err := ledger.Check(t.Context(), e.store.Queries); err != nil {
		t.Errorf("ledger: %v", err)
	}
}

// pain008Schema is the vendored official XSD.
func pain008Schema(t testing.TB) string {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "domain", "sepa", "testdata", "pain.008.001.08.xsd")
}

// items reads a contract's items.
func (e *env) items(t testing.TB, c contract) []itemRow {
	t.Helper()
	rows, err := e.store.ListCollectionItems(t.Context(), c.id)
	if err != nil {
		t.Fatal(err)
	}
	var out []itemRow
	for _, r := range rows {
		n := 0
		if r.InstallmentNumber != nil {
			n = int(*r.InstallmentNumber)
		}
		out = append(out, itemRow{number: n, attempt: int(r.Attempt), sequence: r.SequenceType, status: r.Status, reason: r.Reason, e2e: r.EndToEndID})
	}
	return out
}

// itemRow is what the tests compare of an item.
type itemRow struct {
	number, attempt          int
	sequence, status, reason string
	e2e                      string
}

// notification is a camt.054 document of the notices.
func notification(notices ...notice) *strings.Reader {
	var all []collectiontest.Notice
	for _, n := range notices {
		all = append(all, collectiontest.Notice{EndToEndID: n.e2e, Cents: n.cents, Reason: n.reason})
	}
	return collectiontest.Notification(all...)
}

// notice is one entry of a notification.
type notice struct {
	e2e    string
	cents  int64
	reason string
}

// day parses a date or fails the test.
func day(t testing.TB, s string) civil.Date {
	t.Helper()
	d, err := civil.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// owedInBulk writes, with CopyFrom, contracts of accepted offers' orders,
// half under a CORE mandate and half under B2B (each IBAN sealed with its
// mandate's id), with ten installments each due from January 2026, and
// answers each contract's offer, order, contract and mandate ids.
func (e *env) owedInBulk(t testing.TB, contracts int) [][4]uuid.UUID {
	t.Helper()
	ctx := t.Context()
	ids := make([][4]uuid.UUID, contracts)
	for i := range ids {
		for j := range ids[i] {
			ids[i][j] = uuid.Must(uuid.NewV7())
		}
	}
	rows := func(table string, cols []string, row func(i int) []any) {
		_, err := e.store.Pool.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromSlice(contracts, func(i int) ([]any, error) { return row(i), nil }))
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
	}
	expires := time.Now().Add(30 * 24 * time.Hour)
	rows("offers", []string{"id", "seller_id", "seller_offer_reference", "status", "sales_channel", "document", "expires_at"}, func(i int) []any {
		return []any{ids[i][0], e.seller, fmt.Sprint("ref-", i), "accepted", "online", "{}", expires}
	})
	rows("orders", []string{"id", "seller_id", "offer_id", "seller_offer_reference", "status", "document", "offer_created_at"}, func(i int) []any {
		return []any{ids[i][1], e.seller, ids[i][0], fmt.Sprint("ref-", i), "confirmed", "{}", expires}
	})
	start := day(t, "2026-11-01").Midnight(time.UTC)
	rows("rental_contracts", []string{"id", "order_id", "seller_id", "offer_id", "line_position", "quantity", "duration_months", "monthly_net", "monthly_gross", "currency", "start_date"}, func(i int) []any {
		return []any{ids[i][2], ids[i][1], e.seller, ids[i][0], 0, 1, 12, int64(10000), int64(11900), "EUR", start}
	})
	rows("mandates", []string{"id", "offer_id", "seller_id", "contractual_entity", "creditor_id", "reference", "scheme", "account_holder", "iban_sealed", "iban_masked", "signed_at"}, func(i int) []any {
		m := ids[i][3]
		scheme := sepa.Core
		if i%2 == 1 {
			scheme = sepa.B2B
		}
		return []any{m, ids[i][0], e.seller, entity, creditorID, string(sepa.MandateReferenceFor(m)), string(scheme), fmt.Sprint("Customer ", i),
			e.ring.Seal([]byte("DE89370400440532013000"), m[:]), "DE89 **** **** **** **** 00", start}
	})
	e.exec(t, `INSERT INTO contract_installments (contract_id, number, period_from, period_to, due_date, currency, net, gross, tax_rate, status)
SELECT c.id, n, d, d, d, 'EUR', 10000, 11900 + n, 1900, 'due'
FROM rental_contracts c, generate_series(1, 10) n, LATERAL (SELECT date '2026-01-01' + (n - 1) * interval '1 month' AS d) due`)
	return ids
}
