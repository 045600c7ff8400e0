package db_test

import (
	"os"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/foundation/weburl"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// redirectSamples are stored redirects of every kind the migration meets.
var redirectSamples = []string{
	"https://shop.example/checkout/done?cart=42#top", "HTTPS://Shop.Example:8443/x", "https://shop.example./",
	"https://xn--bcher-kva.example/", "https://192.0.2.10/", "https://[2001:db8::1]/", "https://[::1]/",
	"http://localhost:3000/done", "http://LOCALHOST/done", "http://127.0.0.1:8080/done", "https://localhost/done",
	"https:javascript:alert(1)", "https:///x", "https:/shop.example", "//evil.example", "javascript:alert(1)",
	"data:text/html,<script>alert(1)</script>", "/checkout/done", "done", "http://shop.example/done",
	"http://[::1]/", "http://127.0.0.2/", "ftp://shop.example/", "https://user:pass@shop.example/",
	"https://shop.example@evil.example/", "https://shop.example/a b", "https://shop.example/\u202egnp.exe",
	" https://shop.example/", "https://bücher.example/", "https://shop_example.com/", "https://-shop.example/",
	"https://shop..example/", "https://127.1/", "https://2130706433/", "https://0x7f.1/", "https://999.1.1.1/",
	"https://shop.example:0/", "https://shop.example:65536/", "https://shop.example:65535/", "https://[fe80::1%25eth0]/",
	"https://" + strings.Repeat("a", weburl.MaxLength) + ".example/",
}

// Migration 00089 clears the stored redirects that no environment accepts:
// of the samples, it keeps exactly those the sandbox's rule (which accepts
// everything production's does, and URLs to this machine) accepts.
func TestMigrationClearsRedirectsNobodyMayFollow(t *testing.T) {
	raw, err := os.ReadFile("migrations/00089_followed_redirects.sql")
	if err != nil {
		t.Fatal(err)
	}
	up, _, ok := strings.Cut(string(raw), "-- +goose Down")
	if !ok {
		t.Fatal("the migration has no Down section")
	}
	ctx := t.Context()
	tx, err := testenv.Database(t).Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	// A temporary table is found before public.offers: the migration's
	// statements run on the samples alone.
	if _, err := tx.Exec(ctx, "CREATE TEMP TABLE offers (id int PRIMARY KEY, exit_redirect text NOT NULL, success_redirect text NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	for i, u := range append([]string{""}, redirectSamples...) {
		if _, err := tx.Exec(ctx, "INSERT INTO offers VALUES ($1, $2, $2)", i, u); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tx.Exec(ctx, up); err != nil {
		t.Fatalf("the migration's Up section: %v", err)
	}
	rows, err := tx.Query(ctx, "SELECT id, exit_redirect, success_redirect FROM offers ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	sandbox := weburl.Rule{Local: true}
	for rows.Next() {
		var id int
		var exit, success string
		if err := rows.Scan(&id, &exit, &success); err != nil {
			t.Fatal(err)
		}
		if id == 0 {
			if exit != "" || success != "" {
				t.Errorf("an empty redirect became %q, %q", exit, success)
			}
			continue
		}
		sample := redirectSamples[id-1]
		want := ""
		if sandbox.Check(sample) == nil {
			want = sample
		}
		if exit != want || success != want {
			t.Errorf("%q became %q and %q, want %q", sample, exit, success, want)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
