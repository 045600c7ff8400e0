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
