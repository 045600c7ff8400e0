package db

import "testing"

// TestQueryName names a span by the sqlc query, else by the statement's
// first word after any comments, whatever spacing follows it.
func TestQueryName(t *testing.T) {
	for sql, want := range map[string]string{
		"-- name: CreateOffer :exec\nINSERT INTO offers": "CreateOffer",
		"BEGIN":                          "BEGIN",
		"commit":                         "COMMIT",
		"SELECT\n  1 FROM offers":        "SELECT",
		"/* relay */ select 1":           "SELECT",
		"-- hand-written\nUPDATE events": "UPDATE",
	} {
		if got := queryName(t.Context(), sql); got != want {
			t.Errorf("queryName(%q) = %q, want %q", sql, got, want)
		}
	}
}

// TestReads tells a SELECT, which is recorded as an event, from the
// statements that are spans.
func TestReads(t *testing.T) {
	for sql, want := range map[string]bool{
		"-- name: GetOffer :one\nSELECT id FROM offers":                   true,
		"-- name: ListOffers :many\nselect\n  id FROM offers":             true,
		"-- name: CreateOffer :exec\nINSERT INTO offers":                  false,
		"-- name: Due :many\nWITH due AS (UPDATE installments SET x = 1)": false,
		"SELECT 1":      true,
		"SELECTIVE":     false,
		"begin":         false,
		"UPDATE events": false,
	} {
		if got := reads(sql); got != want {
			t.Errorf("reads(%q) = %v, want %v", sql, got, want)
		}
	}
}
