package identity_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/identity"
	"github.com/tenurehq/tenure/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// claimsOf are the claims of a token issued to s's client under generation.
func claimsOf(s identity.NewSeller, generation int32) identity.Claims {
	return identity.Claims{SellerID: s.Seller.ID, ClientID: s.Credentials.ClientID, Generation: generation}
}

func newSeller(t *testing.T, store *db.Store) identity.NewSeller {
	t.Helper()
	s, err := identity.CreateSeller(t.Context(), store, "Seller "+t.Name(), "EUR")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// eventually polls cond until it holds and says how long that took; the
// deadline only bounds a broken run.
func eventually(t *testing.T, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("%s: still not so after 10 s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
	return time.Since(start)
}

// listening returns a Revocations whose notification connection listens
// until the test ends, and a seller whose generation it has cached.
func listening(t *testing.T) (*db.Store, *identity.Revocations, identity.NewSeller) {
	t.Helper()
	store := testenv.Database(t)
	r := identity.NewRevocations(store, testenv.AppLogger())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Listen(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	eventually(t, "the notification connection listens", r.Listening)
	s := newSeller(t, store)
	if err := r.Check(t.Context(), claimsOf(s, 0)); err != nil {
		t.Fatal(err)
	}
	if !r.Cached(s.Credentials.ClientID) {
		t.Fatal("while listening, a checked generation is cached")
	}
	return store, r, s
}

func TestRotationRevokesTokensAtOnceWithoutNotifications(t *testing.T) {
	store := testenv.Database(t)
	r := identity.NewRevocations(store, testenv.AppLogger())
	s := newSeller(t, store)
	if err := r.Check(t.Context(), claimsOf(s, 0)); err != nil {
		t.Fatalf("a token of a fresh credential is refused: %v", err)
	}
	_, rotated, err := identity.RotateSecret(t.Context(), store, s.Credentials.ClientID)
	if err != nil {
		t.Fatal(err)
	}
	if rotated.ClientID != s.Credentials.ClientID || rotated.ClientSecret == s.Credentials.ClientSecret {
		t.Fatalf("rotation gave %+v", rotated)
	}
	if err := r.Check(t.Context(), claimsOf(s, 0)); !errors.Is(err, identity.ErrRevoked) {
		t.Errorf("a token issued before the rotation: want ErrRevoked, got %v", err)
	}
	if err := r.Check(t.Context(), claimsOf(s, 1)); err != nil {
		t.Errorf("a token issued after the rotation is refused: %v", err)
	}
	if r.Cached(s.Credentials.ClientID) {
		t.Error("without notifications nothing may be cached")
	}
}

func TestRotationRevokesCachedTokensWhenAnnounced(t *testing.T) {
	store, r, s := listening(t)
	if _, _, err := identity.RotateSecret(t.Context(), store, s.Credentials.ClientID); err != nil {
		t.Fatal(err)
	}
	took := eventually(t, "the old token is refused", func() bool {
		return errors.Is(r.Check(t.Context(), claimsOf(s, 0)), identity.ErrRevoked)
	})
	t.Logf("the old token was refused %s after the rotation committed", took)
	if err := r.Check(t.Context(), claimsOf(s, 1)); err != nil {
		t.Errorf("a token of the new generation is refused: %v", err)
	}
	if !r.Cached(s.Credentials.ClientID) {
		t.Error("the new generation is cached again")
	}
}

func TestDeletedCredentialsRevokeTheirTokens(t *testing.T) {
	store, r, s := listening(t)
	if _, err := store.Pool.Exec(t.Context(), "DELETE FROM sellers WHERE id = $1", s.Seller.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the deleted client's token is refused", func() bool {
		return errors.Is(r.Check(t.Context(), claimsOf(s, 0)), identity.ErrRevoked)
	})
}

func TestLostNotificationsStopTheCache(t *testing.T) {
	store, r, s := listening(t)
	_, err := store.Pool.Exec(t.Context(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = 'tenure credential changes' AND datname = current_database()`)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the lost connection is noticed", func() bool { return !r.Listening() })
	if r.Cached(s.Credentials.ClientID) {
		t.Fatal("the cache outlived its notification connection")
	}
	// A rotation nobody announces to r is still seen at once.
	if _, _, err := identity.RotateSecret(t.Context(), store, s.Credentials.ClientID); err != nil {
		t.Fatal(err)
	}
	if err := r.Check(t.Context(), claimsOf(s, 0)); !errors.Is(err, identity.ErrRevoked) {
		t.Errorf("while not listening: want ErrRevoked, got %v", err)
	}
	eventually(t, "the connection is back", r.Listening)
	if err := r.Check(t.Context(), claimsOf(s, 1)); err != nil || !r.Cached(s.Credentials.ClientID) {
		t.Errorf("listening again: %v, cached %v", err, r.Cached(s.Credentials.ClientID))
	}
}

// BenchmarkRevocationCheck is the cost the check adds to every /v1 request:
// a cache hit while listening, a primary-key read otherwise.
func BenchmarkRevocationCheck(b *testing.B) {
	store := testenv.Database(b)
	s, err := identity.CreateSeller(b.Context(), store, "Benchmark", "EUR")
	if err != nil {
		b.Fatal(err)
	}
	claims := identity.Claims{SellerID: s.Seller.ID, ClientID: s.Credentials.ClientID}
	b.Run("database", func(b *testing.B) {
		r := identity.NewRevocations(store, testenv.AppLogger())
		for b.Loop() {
			if err := r.Check(b.Context(), claims); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		r := identity.NewRevocations(store, testenv.AppLogger())
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); r.Listen(ctx) }()
		defer func() { cancel(); <-done }()
		for !r.Listening() {
			time.Sleep(time.Millisecond)
		}
		for b.Loop() {
			if err := r.Check(b.Context(), claims); err != nil {
				b.Fatal(err)
			}
		}
	})
}
