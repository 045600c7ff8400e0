package permanent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/permanent"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// connect opens a connection to a fresh database with a parent and a child
// table whose constraints the cases break.
func connect(t *testing.T) (*pgx.Conn, string) {
	t.Helper()
	url := testenv.DatabaseURL(t)
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	_, err = conn.Exec(t.Context(), `
		CREATE TABLE parent (id int PRIMARY KEY, code varchar(3));
		CREATE TABLE child (
			parent_id int NOT NULL REFERENCES parent,
			quantity  int CHECK (quantity > 0),
			name      text
		);
		INSERT INTO parent (id) VALUES (1), (2);`)
	if err != nil {
		t.Fatal(err)
	}
	return conn, url
}

// failing runs a statement that must fail and returns its error, wrapped
// as activities wrap what they pass on.
func failing(t *testing.T, conn *pgx.Conn, sql string, args ...any) error {
	t.Helper()
	_, err := conn.Exec(t.Context(), sql, args...)
	if err == nil {
		t.Fatalf("%s succeeded", sql)
	}
	return fmt.Errorf("storing the record: %w", err)
}

func TestDataAndIntegrityErrorsArePermanent(t *testing.T) {
	conn, _ := connect(t)
	cases := []struct {
		name, code, reason string
		err                error
	}{
		{"foreign key", "23503", "a record it refers to does not exist",
			failing(t, conn, "INSERT INTO child (parent_id, quantity) VALUES (42, 1)")},
		{"check", "23514", "a value breaks a rule",
			failing(t, conn, "INSERT INTO child (parent_id, quantity) VALUES (1, 0)")},
		{"unique", "23505", "same unique key exists already",
			failing(t, conn, "INSERT INTO parent (id) VALUES (1)")},
		{"not null", "23502", "a required value is missing",
			failing(t, conn, "INSERT INTO child (parent_id) VALUES (NULL)")},
		{"NUL in jsonb", "22P05", "cannot store (such as NUL)",
			failing(t, conn, "SELECT $1::jsonb", `{"name": "a\u0000b"}`)},
		{"NUL in text", "22021", "cannot store (such as NUL)",
			failing(t, conn, "INSERT INTO child (parent_id, name) VALUES (1, $1)", "a\x00b")},
		{"too long", "22001", "longer than the database allows",
			failing(t, conn, "INSERT INTO parent (id, code) VALUES (3, 'ABCD')")},
		{"not a number", "22P02", "not valid for the database",
			failing(t, conn, "SELECT 'abc'::int")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var pgErr *pgconn.PgError
			if !errors.As(c.err, &pgErr) || pgErr.Code != c.code {
				t.Fatalf("PostgreSQL answered %v, not SQLSTATE %s", c.err, c.code)
			}
			reason, ok := permanent.Classify(c.err)
			if !ok || !strings.Contains(reason, c.reason) {
				t.Errorf("Classify = %q, %v; want permanent, %q", reason, ok, c.reason)
			}
			if strings.Contains(reason, "child") || strings.Contains(reason, "SQLSTATE") {
				t.Errorf("the reason shows SQL: %q", reason)
			}
		})
	}
}

func TestUnreadableJSONRefusalsAndFailedStepsArePermanent(t *testing.T) {
	var v struct{ Quantity int }
	syntax := json.Unmarshal([]byte(`{"Quantity": `), &v)
	mistyped := json.Unmarshal([]byte(`{"Quantity": "two"}`), &v)
	cases := []struct {
		name, reason string
		err          error
	}{
		{"truncated JSON", "not the JSON it expects", fmt.Errorf("reading the offer: %w", syntax)},
		{"mistyped JSON", "not the JSON it expects", fmt.Errorf("reading the offer: %w", mistyped)},
		{"offer rejection", "its input was refused: ProductsNotFound: no such product",
			fmt.Errorf("fixture offer: %w", refusal.New(refusal.ProductsNotFound, "no such product"))},
		{"status refusal", "its input was refused: StatusNotAllowed: offers with status=accepted cannot be voided",
			fmt.Errorf("fixture offer: %w", refusal.New(refusal.StatusNotAllowed, "offers with status=accepted cannot be voided"))},
		{"invalid input", "its input was refused: customer.name must be at most 255 characters",
			fmt.Errorf("fixture offer: %w", refusal.Invalidf("customer.name must be at most 255 characters"))},
		{"shipment", "its input was refused: serial number \"S1\" is listed twice",
			fmt.Errorf("shipping: %w", &orders.ShipmentError{Reason: `serial number "S1" is listed twice`})},
		{"failed update", "a step it waited on failed permanently: offer.Create failed permanently: x",
			fmt.Errorf("fixture offer: %w", temporal.NewNonRetryableApplicationError("offer.Create failed permanently: x", permanent.ErrorType, nil))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reason, ok := permanent.Classify(c.err)
			if !ok || !strings.Contains(reason, c.reason) {
				t.Errorf("Classify = %q, %v; want permanent, %q", reason, ok, c.reason)
			}
		})
	}
}

func TestPassingFailuresStayRetryable(t *testing.T) {
	conn, url := connect(t)
	cases := map[string]error{
		"serialization failure": serializationFailure(t, url),
		"deadlock":              deadlock(t, url),
		"admin shutdown":        terminated(t, conn, url),
		"connection refused":    refused(t),
		"deadline":              deadline(t, conn),
		"undefined table":       failing(t, conn, "SELECT * FROM not_migrated_yet"),
		"a plain error":         errors.New("the sku fixture product is missing"),
		"a retryable step":      fmt.Errorf("waiting: %w", temporal.NewApplicationError("busy", "Busy")),
	}
	for name, err := range cases {
		t.Run(name, func(t *testing.T) {
			if reason, ok := permanent.Classify(err); ok {
				t.Errorf("%v is classified permanent (%s)", err, reason)
			}
		})
	}
}

func sqlState(t *testing.T, err error, code string) {
	t.Helper()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != code {
		t.Fatalf("want SQLSTATE %s, got %v", code, err)
	}
}

// twoTransactions begins a transaction on each of two new connections.
func twoTransactions(t *testing.T, url string, opts pgx.TxOptions) [2]pgx.Tx {
	t.Helper()
	var txs [2]pgx.Tx
	for i := range txs {
		c, err := pgx.Connect(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		if txs[i], err = c.BeginTx(t.Context(), opts); err != nil {
			t.Fatal(err)
		}
	}
	return txs
}

// serializationFailure commits two serializable transactions that each
// read what the other writes.
func serializationFailure(t *testing.T, url string) error {
	t.Helper()
	txs := twoTransactions(t, url, pgx.TxOptions{IsoLevel: pgx.Serializable})
	for i := range txs {
		var n int
		if err := txs[i].QueryRow(t.Context(), "SELECT count(*) FROM child").Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	for i, tx := range txs {
		if _, err := tx.Exec(t.Context(), "INSERT INTO child (parent_id, quantity) VALUES ($1, 1)", i+1); err != nil {
			t.Fatal(err)
		}
	}
	if err := txs[0].Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	err := txs[1].Commit(t.Context())
	sqlState(t, err, "40001")
	return err
}

// deadlock has two transactions lock two rows in opposite orders.
func deadlock(t *testing.T, url string) error {
	t.Helper()
	txs := twoTransactions(t, url, pgx.TxOptions{})
	for i := range txs {
		if _, err := txs[i].Exec(t.Context(), "UPDATE parent SET code = 'A' WHERE id = $1", i+1); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, 2)
	for i, tx := range txs {
		go func() {
			_, err := tx.Exec(t.Context(), "UPDATE parent SET code = 'B' WHERE id = $1", 2-i)
			if err != nil {
				_ = tx.Rollback(context.Background())
			} else {
				err = tx.Commit(context.Background())
			}
			errs <- err
		}()
	}
	var failed error
	for range txs {
		if err := <-errs; err != nil {
			failed = err
		}
	}
	sqlState(t, failed, "40P01")
	return failed
}

// terminated is what a connection answers after an administrator (or a
// restarting server) ended its backend.
func terminated(t *testing.T, conn *pgx.Conn, url string) error {
	t.Helper()
	victim, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { victim.Close(context.Background()) })
	if _, err := conn.Exec(t.Context(), "SELECT pg_terminate_backend($1)", victim.PgConn().PID()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	_, err = victim.Exec(t.Context(), "SELECT 1")
	sqlState(t, err, "57P01")
	return err
}

func refused(t *testing.T) error {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = pgx.Connect(t.Context(), "postgres://postgres@"+addr+"/tenure?sslmode=disable")
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("want a refused connection, got %v", err)
	}
	return err
}

func deadline(t *testing.T, conn *pgx.Conn) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := conn.Exec(ctx, "SELECT pg_sleep(2)")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want a deadline, got %v", err)
	}
	return err
}
