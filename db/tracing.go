package db

import (
	"context"
	"strings"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
)

// queryTracer traces every statement run inside a recorded trace (a
// request's, a workflow's activity's) as a span named by its sqlc query;
// outside one, such as the relay's polling, it records nothing.
//
// A span carries the query's name and the rows it affected, not the
// statement's text nor the connection's details (server, user, database):
// the sqlc name finds the statement in db/queries, a process talks to the
// one database of its configuration, and copying both onto every span was
// half of what tracing a statement cost (the connection's details alone
// copy the whole connection configuration each time; decision record
// 0278).
func queryTracer() pgx.QueryTracer {
	return otelpgx.NewTracer(otelpgx.WithSpanNameCtxFunc(queryName), otelpgx.WithDisableAcquireTracer(),
		otelpgx.WithDisableSQLStatementInAttributes(), otelpgx.WithDisableConnectionDetailsInAttributes())
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
