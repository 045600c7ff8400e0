package testenv

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/db"
)

// AdminURL is the PostgreSQL server tests create their databases on
// (TENURE_TEST_DATABASE_URL, by default the local trust-auth server).
func AdminURL() string {
	if u := os.Getenv("TENURE_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

var databaseSeq atomic.Int64

// DatabaseURL creates a fresh database with every migration applied, cloned
// from a template built once per migration set, and drops it when the test
// ends.
func DatabaseURL(t testing.TB) string {
	t.Helper()
	ctx := background()
	template, err := ensureTemplate(ctx)
	if err != nil {
		t.Fatalf("preparing the template database: %v", err)
	}
	name := fmt.Sprintf("tenure_test_%d_%d", os.Getpid(), databaseSeq.Add(1))
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		t.Fatalf("connecting to PostgreSQL at %s (set TENURE_TEST_DATABASE_URL): %v", AdminURL(), err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, template)); err != nil {
		t.Fatalf("creating database %s: %v", name, err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(context.Background(), AdminURL())
		if err != nil {
			t.Errorf("dropping database %s: %v", name, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping database %s: %v", name, err)
		}
	})
	return withDatabase(AdminURL(), name)
}

// Database is DatabaseURL opened as a store, closed when the test ends.
func Database(t testing.TB) *db.Store {
	t.Helper()
	return Connect(t, DatabaseURL(t), 20)
}

// Connect is a store on the database at databaseURL with a pool of at most
// maxConns connections, closed when the test ends.
func Connect(t testing.TB, databaseURL string, maxConns int32) *db.Store {
	t.Helper()
	pool, err := db.Connect(background(), databaseURL, maxConns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return db.NewStore(pool)
}

// ensureTemplate builds the template database of the current migrations
// unless it exists. An advisory lock makes concurrent test packages build
// it once; the template appears under its final name only when complete.
func ensureTemplate(ctx context.Context) (string, error) {
	name := "tenure_template_" + db.Fingerprint()
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return "", fmt.Errorf("connecting to PostgreSQL at %s (set TENURE_TEST_DATABASE_URL): %w", AdminURL(), err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock(hashtext('tenure-test-template'))"); err != nil {
		return "", err
	}
	defer admin.Exec(ctx, "SELECT pg_advisory_unlock(hashtext('tenure-test-template'))")

	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	building := name + "_building"
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	pool, err := db.Connect(ctx, withDatabase(AdminURL(), building), 2)
	if err != nil {
		return "", err
	}
	err = db.Migrate(ctx, pool, slog.New(slog.NewTextHandler(io.Discard, nil)))
	pool.Close()
	if err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", building, name)); err != nil {
		return "", err
	}
	return name, nil
}

func withDatabase(rawURL, name string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}
