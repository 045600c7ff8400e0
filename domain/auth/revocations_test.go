package auth_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// claimsOf are the claims of a token issued to s's client under generation.
func claimsOf(s auth.NewSeller, generation int32) auth.Claims {
	return auth.Claims{SellerID: s.Seller.ID, ClientID: s.Credentials.ClientID, Generation: generation}
}

func newSeller(t *testing.T, store *db.Store) auth.NewSeller {
	t.Helper()
	s, err := auth.CreateSeller(t.Context(), store, "Seller "+t.Name(), "EUR")
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
func listening(t *testing.T) (*db.Store, *auth.Revocations, auth.NewSeller) {
	t.Helper()
	store := testenv.Database(t)
	r := auth.NewRevocations(store, testenv.AppLogger())
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
	r := auth.NewRevocations(store, testenv.AppLogger())
	s := newSeller(t, store)
	if err := r.Check(t.Context(), claimsOf(s, 0)); err != nil {
		t.Fatalf("a token of a fresh credential is refused: %v", err)
	}
	_, rotated, err := auth.RotateSecret(t.Context(), store, s.Credentials.ClientID)
	if err != nil {
		t.Fatal(err)
	}
	if rotated.ClientID != s.Credentials.ClientID || rotated.ClientSecret == s.Credentials.ClientSecret {
		t.Fatalf("rotation gave %+v", rotated)
	}
	if err := r.Check(t.Context(), claimsOf(s, 0)); !errors.Is(err, auth.ErrRevoked) {
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
	if _, _, err := auth.RotateSecret(t.Context(), store, s.Credentials.ClientID); err != nil {
		t.Fatal(err)
	}
	took := eventually(t, "the old token is refused", func() bool {
		return errors.Is(r.Check(t.Context(), claimsOf(s, 0)), auth.ErrRevoked)
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
		return errors.Is(r.Check(t.Context(), claimsOf(s, 0)), auth.ErrRevoked)
	})
}

func TestLostNotificationsStopTheCache(t *testing.T) {
	store, r, s := listening(t)
	_, err := store.Pool.Exec(t.Context(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = 'tenure revocations' AND datname = current_database()`)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the lost connection is noticed", func() bool { return !r.Listening() })
	if r.Cached(s.Credentials.ClientID) {
		t.Fatal("the cache outlived its notification connection")
	}
	// A rotation nobody announces to r is still seen at once.
	if _, _, err := auth.RotateSecret(t.Context(), store, s.Credentials.ClientID); err != nil {
		t.Fatal(err)
	}
	if err := r.Check(t.Context(), claimsOf(s, 0)); !errors.Is(err, auth.ErrRevoked) {
		t.Errorf("while not listening: want ErrRevoked, got %v", err)
	}
	eventually(t, "the connection is back", r.Listening)
	if err := r.Check(t.Context(), claimsOf(s, 1)); err != nil || !r.Cached(s.Credentials.ClientID) {
		t.Errorf("listening again: %v, cached %v", err, r.Cached(s.Credentials.ClientID))
	}
}

// newOffer stores an open offer of s, as its workflow does at creation.
func newOffer(t *testing.T, store *db.Store, s auth.NewSeller) auth.OfferClaims {
	t.Helper()
	id := uuid.Must(uuid.NewV7())
	err := store.CreateOffer(t.Context(), dbgen.CreateOfferParams{ID: id, SellerID: s.Seller.ID, SellerOfferReference: "ref-" + id.String(),
		SalesChannel: "ecommerce", Document: []byte(`{}`), ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	return auth.OfferClaims{OfferID: id, SellerID: s.Seller.ID}
}

// setStanding changes an offer's standing as its workflow's persistence
// does (tests may write what the workflow owns: the trigger announces it
// whoever writes).
func setStanding(t *testing.T, store *db.Store, c auth.OfferClaims, status offers.Status, supersededBy *uuid.UUID) {
	t.Helper()
	if _, err := store.Pool.Exec(t.Context(), "UPDATE offers SET status = $2, superseded_by_id = $3 WHERE id = $1", c.OfferID, status, supersededBy); err != nil {
		t.Fatal(err)
	}
}

// reachOf is CheckOffer's answer, with revoked for ErrOfferClosed.
func reachOf(t *testing.T, r *auth.Revocations, c auth.OfferClaims) offers.Reach {
	t.Helper()
	reach, err := r.CheckOffer(t.Context(), c)
	if err != nil && !errors.Is(err, auth.ErrOfferClosed) {
		t.Fatal(err)
	}
	if errors.Is(err, auth.ErrOfferClosed) != (reach == offers.ReachRevoked) || (err != nil && !errors.Is(err, auth.ErrRevoked)) {
		t.Fatalf("reach %v with error %v", reach, err)
	}
	return reach
}

// A customer token's reach follows its offer's life at once, also without
// notifications: the whole checkout while the offer is open, nothing under
// review (the link shows the status), revoked once it is final, superseded
// or gone.
func TestOfferReachFollowsTheOfferWithoutNotifications(t *testing.T) {
	store := testenv.Database(t)
	r := auth.NewRevocations(store, testenv.AppLogger())
	s := newSeller(t, store)
	c := newOffer(t, store, s)
	for _, step := range []struct {
		status offers.Status
		want   offers.Reach
	}{
		{offers.Created, offers.ReachCheckout},
		{offers.PendingReview, offers.ReachStatus},
		{offers.Accepted, offers.ReachRevoked},
	} {
		setStanding(t, store, c, step.status, nil)
		if got := reachOf(t, r, c); got != step.want {
			t.Errorf("%s: reach %v, want %v", step.status, got, step.want)
		}
	}
	superseded := newOffer(t, store, s)
	setStanding(t, store, superseded, offers.Voided, &c.OfferID)
	if got := reachOf(t, r, superseded); got != offers.ReachRevoked {
		t.Errorf("a superseded offer: reach %v", got)
	}
	if got := reachOf(t, r, auth.OfferClaims{OfferID: uuid.New(), SellerID: s.Seller.ID}); got != offers.ReachRevoked {
		t.Errorf("an offer that does not exist: reach %v", got)
	}
	if r.CachedOffer(c.OfferID) {
		t.Error("without notifications nothing may be cached")
	}
}

// While listening, an offer's standing is cached, and a change of its
// status, its supersession or its deletion is announced and seen.
func TestOfferChangesAreAnnounced(t *testing.T) {
	store, r, s := listening(t)
	c := newOffer(t, store, s)
	if got := reachOf(t, r, c); got != offers.ReachCheckout || !r.CachedOffer(c.OfferID) {
		t.Fatalf("an open offer: reach %v, cached %v", got, r.CachedOffer(c.OfferID))
	}
	setStanding(t, store, c, offers.PendingReview, nil)
	took := eventually(t, "the customer token stops opening the checkout", func() bool { return reachOf(t, r, c) == offers.ReachStatus })
	t.Logf("the checkout closed for the token %s after the offer's change committed", took)
	setStanding(t, store, c, offers.Declined, nil)
	eventually(t, "the customer token is revoked", func() bool { return reachOf(t, r, c) == offers.ReachRevoked })

	edited := newOffer(t, store, s)
	if got := reachOf(t, r, edited); got != offers.ReachCheckout {
		t.Fatalf("an open offer: reach %v", got)
	}
	// An edit voids the offer naming its successor in one statement.
	successor := newOffer(t, store, s)
	setStanding(t, store, edited, offers.Voided, &successor.OfferID)
	eventually(t, "the superseded offer's token is revoked", func() bool { return reachOf(t, r, edited) == offers.ReachRevoked })

	reachOf(t, r, successor)
	if !r.CachedOffer(successor.OfferID) {
		t.Fatal("the successor's standing is cached")
	}
	if _, err := store.Pool.Exec(t.Context(), "DELETE FROM sellers WHERE id = $1", s.Seller.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the deleted seller's offer's token is revoked", func() bool { return reachOf(t, r, successor) == offers.ReachRevoked })
}

// BenchmarkRevocationCheck is the cost the check adds to every /v1 request
// (a seller token) and every customer bearer request (an offer token): a
// cache hit while listening, a primary-key read otherwise.
func BenchmarkRevocationCheck(b *testing.B) {
	store := testenv.Database(b)
	s, err := auth.CreateSeller(b.Context(), store, "Benchmark", "EUR")
	if err != nil {
		b.Fatal(err)
	}
	claims := auth.Claims{SellerID: s.Seller.ID, ClientID: s.Credentials.ClientID}
	offerID := uuid.Must(uuid.NewV7())
	err = store.CreateOffer(b.Context(), dbgen.CreateOfferParams{ID: offerID, SellerID: s.Seller.ID, SellerOfferReference: "bench",
		SalesChannel: "ecommerce", Document: []byte(`{}`), ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil {
		b.Fatal(err)
	}
	offer := auth.OfferClaims{OfferID: offerID, SellerID: s.Seller.ID}
	checks := map[string]func(*auth.Revocations) error{
		"seller": func(r *auth.Revocations) error { return r.Check(b.Context(), claims) },
		"offer": func(r *auth.Revocations) error {
			_, err := r.CheckOffer(b.Context(), offer)
			return err
		},
	}
	for _, token := range []string{"seller", "offer"} {
		check := checks[token]
		b.Run(token+"/database", func(b *testing.B) {
			r := auth.NewRevocations(store, testenv.AppLogger())
			for b.Loop() {
				if err := check(r); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(token+"/cached", func(b *testing.B) {
			r := auth.NewRevocations(store, testenv.AppLogger())
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); r.Listen(ctx) }()
			defer func() { cancel(); <-done }()
			for !r.Listening() {
				time.Sleep(time.Millisecond)
			}
			for b.Loop() {
				if err := check(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
