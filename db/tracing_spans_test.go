package db_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// TestStatementsInATrace runs a committed and a rolled-back transaction
// inside a recorded trace: each is one span, "transaction", under the
// trace's span, saying how it ended, with its write as a span under it and
// its read as an event on it; BEGIN, COMMIT and ROLLBACK have no spans of
// their own, and a statement's span carries neither its text nor the
// connection's details.
func TestStatementsInATrace(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
	t.Cleanup(func() { _ = provider.Shutdown(t.Context()) })
	telemetry.UseTracerProvider(provider)
	store := testenv.Database(t)

	ctx, request := provider.Tracer("db_test").Start(t.Context(), "request")
	if err := store.InTx(ctx, func(q *dbgen.Queries) error {
		return q.DeleteExpiredConsoleSessions(ctx, time.Now())
	}); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("refused")
	if err := store.InTx(ctx, func(q *dbgen.Queries) error {
		if _, err := q.CountActiveCSVImports(ctx, uuid.New()); err != nil {
			return err
		}
		return refused
	}); !errors.Is(err, refused) {
		t.Fatalf("the rolled-back transaction returned %v", err)
	}
	request.End()

	var transactions []sdktrace.ReadOnlySpan
	var write sdktrace.ReadOnlySpan
	for _, s := range recorder.Ended() {
		switch s.Name() {
		case "transaction":
			if s.Parent().SpanID() != request.SpanContext().SpanID() {
				t.Errorf("a transaction is not under the request")
			}
			transactions = append(transactions, s)
		case "DeleteExpiredConsoleSessions":
			if _, prepare := attribute(s, "pgx.prepare_stmt.name"); !prepare {
				write = s
			}
		case "request":
		default:
			t.Errorf("a span %s", s.Name())
		}
	}
	if len(transactions) != 2 || write == nil {
		t.Fatalf("%d transactions and the write %v recorded, want 2 and the write", len(transactions), write != nil)
	}
	committed, rolledBack := transactions[0], transactions[1]
	if end, _ := attribute(committed, "tenure.db.transaction.end"); end != "COMMIT" {
		t.Errorf("the first transaction ended with %q, want COMMIT", end)
	}
	if end, _ := attribute(rolledBack, "tenure.db.transaction.end"); end != "ROLLBACK" {
		t.Errorf("the second transaction ended with %q, want ROLLBACK", end)
	}
	if write.Parent().SpanID() != committed.SpanContext().SpanID() {
		t.Errorf("the write is not under its transaction")
	}
	for _, key := range []string{"db.query.text", "server.address", "user.name", "db.namespace"} {
		if _, ok := attribute(write, key); ok {
			t.Errorf("the write's span carries %s", key)
		}
	}
	if events := rolledBack.Events(); len(events) != 1 || events[0].Name != "CountActiveCSVImports" {
		t.Errorf("the rolled-back transaction's events are %v, want the read", events)
	}
}

// attribute is the value of span's attribute key as a string, and whether
// it has one.
func attribute(span sdktrace.ReadOnlySpan, key string) (string, bool) {
	for _, a := range span.Attributes() {
		if string(a.Key) == key {
			return a.Value.Emit(), true
		}
	}
	return "", false
}
