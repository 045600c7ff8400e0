package db

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Store gives access to the sqlc queries, on the pool or inside a transaction.
type Store struct {
	*dbgen.Queries
	Pool *pgxpool.Pool
}

// NewStore wraps a pool.
func NewStore(pool *pgxpool.Pool) *Store {
	return &Store{Queries: dbgen.New(pool), Pool: pool}
}

// InTx runs fn in one transaction: committed when fn returns nil, rolled
// back otherwise. fn must not keep q after it returns.
func (s *Store) InTx(ctx context.Context, fn func(q *dbgen.Queries) error) error {
	return pgx.BeginFunc(ctx, s.Pool, func(tx pgx.Tx) error {
		return fn(s.Queries.WithTx(tx))
	})
}

// IsNotFound reports whether err says a query found no row.
func IsNotFound(err error) bool {
	return errors.Is(err, pgx.ErrNoRows)
}

// IsUniqueViolation reports whether err is a breach of the named unique
// constraint or index.
func IsUniqueViolation(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == constraint
}

// EscapeLike makes a term match literally inside a LIKE pattern (with the
// default backslash escape).
func EscapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Connect opens a pool and checks that the server answers, with an error
// that says what to configure when it does not.
func Connect(ctx context.Context, url string, maxConns int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database.url (TENURE_DATABASE_URL) is not a valid PostgreSQL URL: %w", err)
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	cfg.ConnConfig.Tracer = queryTracer()
	cfg.AfterConnect = func(_ context.Context, conn *pgx.Conn) error {
		encodeUUIDsAsBytes(conn.TypeMap())
		return nil
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, unreachable(cfg.ConnConfig, err)
	}
	return pool, nil
}

// EnsureDatabase creates the database named in url when it does not exist,
// connecting to the server's postgres database to do so.
func EnsureDatabase(ctx context.Context, url string) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("database.url (TENURE_DATABASE_URL) is not a valid PostgreSQL URL: %w", err)
	}
	name := cfg.Database
	admin := cfg.Copy()
	admin.Database = "postgres"
	conn, err := pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return unreachable(admin, err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return fmt.Errorf("checking whether database %q exists: %w", name, err)
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" {
		return nil // created concurrently by another process
	}
	if err != nil {
		return fmt.Errorf("creating database %q: %w", name, err)
	}
	return nil
}

func unreachable(cfg *pgx.ConnConfig, err error) error {
	return fmt.Errorf("cannot reach PostgreSQL at %s:%d as %q (database %q): %w\n"+
		"Start PostgreSQL or point database.url (TENURE_DATABASE_URL) at a running server, "+
		"e.g. postgres://postgres@127.0.0.1:5432/tenure?sslmode=disable",
		cfg.Host, cfg.Port, cfg.User, cfg.Database, err)
}
