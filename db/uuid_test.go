package db_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// UUIDs go into PostgreSQL as themselves, through parameters and COPY,
// and a nil pointer stays NULL.
func TestUUIDsRoundTrip(t *testing.T) {
	store := testenv.Database(t)
	ctx := t.Context()
	id := uuid.Must(uuid.NewV7())
	var back uuid.UUID
	if err := store.Pool.QueryRow(ctx, "SELECT $1::uuid", id).Scan(&back); err != nil || back != id {
		t.Fatalf("parameter: %v %v", back, err)
	}
	if _, err := store.Pool.Exec(ctx, "CREATE TABLE uuid_roundtrip (id uuid, other uuid)"); err != nil {
		t.Fatal(err)
	}
	var none *uuid.UUID
	if _, err := store.Pool.CopyFrom(ctx, pgx.Identifier{"uuid_roundtrip"}, []string{"id", "other"},
		pgx.CopyFromRows([][]any{{id, &id}, {id, none}})); err != nil {
		t.Fatal(err)
	}
	var same, nulls int
	if err := store.Pool.QueryRow(ctx, "SELECT count(*) FILTER (WHERE id = $1 AND other = $1), count(*) FILTER (WHERE other IS NULL) FROM uuid_roundtrip", id).Scan(&same, &nulls); err != nil {
		t.Fatal(err)
	}
	if same != 1 || nulls != 1 {
		t.Errorf("copied %d equal rows and %d nulls, want 1 and 1", same, nulls)
	}

	// And they take the direct plan, not the driver.Valuer detour.
	conn, err := store.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for value, want := range map[any]string{id: "*db.uuidAsBytes", &id: "*db.uuidPointerAsBytes"} {
		plan := conn.Conn().TypeMap().PlanEncode(pgtype.UUIDOID, pgtype.BinaryFormatCode, value)
		if got := fmt.Sprintf("%T", plan); got != want {
			t.Errorf("%T is encoded by %s, want %s", value, got, want)
		}
	}
}
