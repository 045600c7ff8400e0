package db

import (
	"strings"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
)

// queryTracer traces every statement run inside a recorded trace (a
// request's, a workflow's activity's) as a span named by its sqlc query;
// outside one, such as the relay's polling, it records nothing.
func queryTracer() pgx.QueryTracer {
	return otelpgx.NewTracer(otelpgx.WithSpanNameFunc(queryName), otelpgx.WithDisableAcquireTracer())
}

// queryName is the name sqlc gives a statement in its first line
// ("-- name: CreateOffer :exec"), else the statement's first word (BEGIN,
// COMMIT, a hand-written SELECT).
func queryName(sql string) string {
	if rest, ok := strings.CutPrefix(sql, "-- name: "); ok {
		if name, _, ok := strings.Cut(rest, " "); ok {
			return name
		}
	}
	word, _, _ := strings.Cut(strings.TrimSpace(sql), " ")
	return strings.ToUpper(word)
}
