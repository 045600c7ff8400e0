package clustertest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// databasePrefix starts the name of every database a run creates; the
// next part is the test process's id, so a later run can tell databases
// whose run died without dropping them.
const databasePrefix = "tenure_cluster_"

// postgres is the server the run's databases live on: the tests' admin URL
// (TENURE_TEST_DATABASE_URL, by default the local server).
type postgres struct {
	admin *url.URL
	// prefix names this run's databases.
	prefix string
}

func newPostgres(t testing.TB) postgres {
	t.Helper()
	admin, err := url.Parse(testenv.AdminURL())
	if err != nil {
		t.Fatalf("TENURE_TEST_DATABASE_URL: %v", err)
	}
	pg := postgres{admin: admin, prefix: fmt.Sprintf("%s%d_", databasePrefix, os.Getpid())}
	pg.dropStale(t)
	return pg
}

// name is the run's database called what.
func (pg postgres) name(what string) string { return pg.prefix + what }

// url is the URL of a database of the run.
func (pg postgres) url(name string) string {
	u := *pg.admin
	u.Path = "/" + name
	return u.String()
}

// host, port, user and password are the server's connection parts.
func (pg postgres) host() string { return pg.admin.Hostname() }

func (pg postgres) port() string {
	if p := pg.admin.Port(); p != "" {
		return p
	}
	return "5432"
}

func (pg postgres) user() string { return pg.admin.User.Username() }

func (pg postgres) password() string {
	p, _ := pg.admin.User.Password()
	return p
}

// dropAtEnd drops a database of the run when the test ends, whether or not
// it was created.
func (pg postgres) dropAtEnd(t testing.TB, name string) {
	t.Cleanup(func() {
		if err := pg.exec("DROP DATABASE IF EXISTS " + pgx.Identifier{name}.Sanitize() + " WITH (FORCE)"); err != nil {
			t.Errorf("dropping database %s: %v", name, err)
		}
	})
}

// dropStale drops the databases of earlier runs whose process is gone
// (killed, or timed out before its cleanup).
func (pg postgres) dropStale(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.admin.String())
	if err != nil {
		t.Fatalf("connecting to PostgreSQL at %s (set TENURE_TEST_DATABASE_URL): %v", pg.admin.Redacted(), err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT datname FROM pg_database WHERE starts_with(datname, $1)", databasePrefix)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		pid, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(name, databasePrefix), "_", 2)[0])
		if err != nil || !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			continue // not ours, or its run is still going
		}
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Logf("dropping the stale database %s: %v", name, err)
		}
	}
}

// exec runs one statement on the admin connection.
func (pg postgres) exec(sql string) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.admin.String())
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// watchConnections samples how many connections the run's databases have
// every 100 ms, until the returned stop is called, which returns the most
// seen.
func (pg postgres) watchConnections(t testing.TB) (stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	conn, err := pgx.Connect(ctx, pg.admin.String())
	if err != nil {
		t.Fatal(err)
	}
	most := make(chan int, 1)
	go func() {
		defer conn.Close(context.Background())
		highest := 0
		for ctx.Err() == nil {
			var n int
			err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE starts_with(datname, $1)", pg.prefix).Scan(&n)
			if err == nil {
				highest = max(highest, n)
			}
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
		most <- highest
	}()
	return func() int {
		cancel()
		return <-most
	}
}
