package db

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// queryTracer traces the statements run inside a recorded trace (a
// request's, a workflow's activity's); outside one, such as the relay's
// polling, it records nothing. A statement that changes data is a span
// named by its sqlc query; a read (a SELECT) is an event of that name on
// the span it runs under, with its duration and rows, unless it fails,
// when it is a span like the others; a transaction is one span,
// "transaction", from its BEGIN to its COMMIT or ROLLBACK, with its
// statements under it.
//
// A statement's span carries the query's name and the rows it affected,
// not the statement's text nor the connection's details (server, user,
// database): the sqlc name finds the statement in db/queries, a process
// talks to the one database of its configuration, and copying both onto
// every span was half of what tracing a statement cost (the connection's
// details alone copy the whole connection configuration each time). Reads
// are most of the statements (six of seven in an offer's creation) and an
// event costs a fraction of a span (decision record 0278).
func queryTracer() pgx.QueryTracer {
	return &statementTracer{
		Tracer: otelpgx.NewTracer(otelpgx.WithSpanNameCtxFunc(queryName), otelpgx.WithDisableAcquireTracer(),
			otelpgx.WithDisableSQLStatementInAttributes(), otelpgx.WithDisableConnectionDetailsInAttributes()),
		own: otel.Tracer("github.com/tenurehq/tenure/db"),
	}
}

// statementTracer is otelpgx's tracer (statements, prepares, batches,
// copies) with reads recorded as events and a transaction's control
// statements folded into the span of the transaction they begin and end.
type statementTracer struct {
	*otelpgx.Tracer
	// own starts the spans of transactions and of failed reads.
	own trace.Tracer
}

// openTransaction is the key, in the connection's custom data, of the span
// of the transaction open on it; a connection runs one statement at a
// time, so the map needs no lock.
const openTransaction = "tenure/db: open transaction span"

// Attributes of a transaction's span and of a read's event.
const (
	// transactionEnd says how a transaction ended: COMMIT, or ROLLBACK
	// (also when PostgreSQL answers a COMMIT of a failed transaction so).
	transactionEnd = attribute.Key("tenure.db.transaction.end")
	// readDuration is how long a read took, in microseconds.
	readDuration = attribute.Key("tenure.db.duration_us")
)

// read is a read statement under way, recorded as an event on parent when
// it ends.
type read struct {
	parent trace.Span
	name   string
	start  time.Time
}

// readKey is the context key of the read under way.
type readKey struct{}

// TraceQueryStart starts the transaction's span at its BEGIN, makes it the
// parent of the statements the transaction runs, and hands it to
// TraceQueryEnd at its COMMIT or ROLLBACK; it notes a read's start, and
// starts the span of any other statement.
func (t *statementTracer) TraceQueryStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	custom := conn.PgConn().CustomData()
	open, inTransaction := custom[openTransaction].(trace.Span)
	switch {
	case inTransaction && endsTransaction(data.SQL):
		return trace.ContextWithSpan(ctx, open)
	case !trace.SpanFromContext(ctx).IsRecording():
		return t.Tracer.TraceQueryStart(ctx, conn, data)
	case inTransaction:
		ctx = trace.ContextWithSpan(ctx, open)
	case beginsTransaction(data.SQL):
		ctx, span := t.own.Start(ctx, "transaction", trace.WithSpanKind(trace.SpanKindClient))
		if span.IsRecording() {
			custom[openTransaction] = span
		}
		return ctx
	}
	if reads(data.SQL) {
		parent := trace.SpanFromContext(ctx)
		// Under a span context that records nothing, preparing the
		// statement records nothing either.
		ctx = trace.ContextWithSpanContext(ctx, parent.SpanContext())
		return context.WithValue(ctx, readKey{}, &read{parent: parent, name: queryName(ctx, data.SQL), start: time.Now()})
	}
	return t.Tracer.TraceQueryStart(ctx, conn, data)
}

// TraceQueryEnd records a read, ends a statement's span, and the
// transaction's when its BEGIN failed or its COMMIT or ROLLBACK has run.
func (t *statementTracer) TraceQueryEnd(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryEndData) {
	if r, ok := ctx.Value(readKey{}).(*read); ok {
		t.endRead(r, data)
		return
	}
	custom := conn.PgConn().CustomData()
	open, inTransaction := custom[openTransaction].(trace.Span)
	// Spans are told apart by their ids: an open transaction's span is
	// recording, so its id is a real one.
	if !inTransaction || trace.SpanFromContext(ctx).SpanContext().SpanID() != open.SpanContext().SpanID() {
		t.Tracer.TraceQueryEnd(ctx, conn, data)
		return
	}
	tag := data.CommandTag.String()
	if data.Err == nil && tag == "BEGIN" {
		return
	}
	delete(custom, openTransaction)
	if data.Err != nil {
		failed(open, data.Err)
	} else {
		open.SetAttributes(transactionEnd.String(tag))
	}
	open.End()
}

// endRead records a read as an event on its parent span, or, when it
// failed, as a span of its own, so that the failure shows like any
// other statement's.
func (t *statementTracer) endRead(r *read, data pgx.TraceQueryEndData) {
	if data.Err != nil && !errors.Is(data.Err, pgx.ErrNoRows) {
		_, span := t.own.Start(trace.ContextWithSpan(context.Background(), r.parent), r.name,
			trace.WithTimestamp(r.start), trace.WithSpanKind(trace.SpanKindClient))
		failed(span, data.Err)
		span.End()
		return
	}
	r.parent.AddEvent(r.name, trace.WithTimestamp(r.start), trace.WithAttributes(
		readDuration.Int64(time.Since(r.start).Microseconds()), otelpgx.RowsAffectedKey.Int64(data.CommandTag.RowsAffected())))
}

// failed marks span as failed with err.
func failed(span trace.Span, err error) {
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
}

// reads reports whether sql, after sqlc's name line, is a SELECT.
func reads(sql string) bool {
	if strings.HasPrefix(sql, "-- name: ") {
		_, sql, _ = strings.Cut(sql, "\n")
	}
	const verb = "select"
	return len(sql) > len(verb) && strings.EqualFold(sql[:len(verb)], verb) && unicode.IsSpace(rune(sql[len(verb)]))
}

// beginsTransaction reports whether sql is pgx's BEGIN, with or without
// the transaction's options.
func beginsTransaction(sql string) bool {
	verb, _, _ := strings.Cut(sql, " ")
	return strings.EqualFold(verb, "begin")
}

// endsTransaction reports whether sql is pgx's COMMIT or ROLLBACK of the
// transaction (not a ROLLBACK TO SAVEPOINT, which leaves it open).
func endsTransaction(sql string) bool {
	return strings.EqualFold(sql, "commit") || strings.EqualFold(sql, "rollback")
}

// queryName is the name sqlc gives a statement in its first line
// ("-- name: CreateOffer :exec"), else otelpgx's own name for it: its first
// word after any comments (BEGIN, COMMIT, a hand-written SELECT).
func queryName(ctx context.Context, sql string) string {
	if rest, ok := strings.CutPrefix(sql, "-- name: "); ok {
		if name, _, ok := strings.Cut(rest, " "); ok {
			return name
		}
	}
	return otelpgx.SQLOperationName(ctx, sql)
}
