package idv_test

import (
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestSessions(t *testing.T) {
	store := testenv.Database(t)
	ctx := t.Context()
	s, err := auth.CreateSeller(ctx, store, "Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	sellerID, offerID := s.Seller.ID, uuid.Must(uuid.NewV7())
	err = store.CreateOffer(ctx, dbgen.CreateOfferParams{ID: offerID, SellerID: sellerID, SellerOfferReference: "r",
		SalesChannel: "ecommerce", Document: []byte(`{}`), ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	p := idv.NewProvider("idv.example", "https://idv.example/start", strings.Repeat("s", 32), 30*time.Minute)

	if latest, err := idv.Latest(ctx, store.Queries, sellerID, offerID); err != nil || latest != nil {
		t.Fatalf("no session yet: %+v %v", latest, err)
	}
	first, link, err := idv.Start(ctx, store.Queries, p, sellerID, offerID, "https://tenure.example/checkout/offers/"+offerID.String())
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(link)
	q := u.Query()
	if q.Get("session_id") != first.ID.String() || q.Get("return_url") != first.ReturnURL ||
		!strings.HasSuffix(first.ReturnURL, "?idv_session="+first.ID.String()) {
		t.Errorf("link %s for session %+v", link, first)
	}
	if err := p.VerifyLink(q.Get("session_id"), q.Get("return_url"), q.Get("signature")); err != nil {
		t.Errorf("the provider refuses Tenure's link: %v", err)
	}
	if d := time.Until(first.LinkExpiresAt); first.Status != idv.SessionPending || d < 29*time.Minute || d > 30*time.Minute {
		t.Errorf("a new session is pending for the session TTL: %+v", first)
	}
	again, sameLink, err := idv.Start(ctx, store.Queries, p, sellerID, offerID, "https://tenure.example/checkout/offers/"+offerID.String())
	if err != nil || again.ID != first.ID || sameLink != link {
		t.Errorf("asking again while the session is open answers it, with the same link: %+v %s %v", again, sameLink, err)
	}
	// The link expires without a verdict: the next request opens a new
	// session, and the old one is over.
	if _, err := store.Pool.Exec(ctx, "UPDATE idv_sessions SET link_expires_at = now() - interval '1 second' WHERE id = $1", first.ID); err != nil {
		t.Fatal(err)
	}
	second, _, err := idv.Start(ctx, store.Queries, p, sellerID, offerID, "https://tenure.example/checkout/offers/"+offerID.String())
	if err != nil || second.ID == first.ID {
		t.Fatalf("after the link expired: %+v %v", second, err)
	}
	if latest, _ := idv.Latest(ctx, store.Queries, sellerID, offerID); latest == nil || latest.ID != second.ID {
		t.Errorf("the newest session counts: %+v", latest)
	}
	if latest, _ := idv.Latest(ctx, store.Queries, uuid.New(), offerID); latest != nil {
		t.Error("another seller sees the offer's sessions")
	}
	var firstStatus string
	if err := store.Pool.QueryRow(ctx, "SELECT status FROM idv_sessions WHERE id = $1", first.ID).Scan(&firstStatus); err != nil || firstStatus != string(idv.SessionExpired) {
		t.Errorf("the replaced session: %q %v", firstStatus, err)
	}

	decided, err := idv.Decide(ctx, store.Queries, idv.Verdict{SessionID: second.ID, Status: idv.SessionVerified, ProviderReference: "p-42"})
	if err != nil || decided.Status != idv.SessionVerified {
		t.Fatalf("decide: %+v %v", decided, err)
	}
	if again, err := idv.Decide(ctx, store.Queries, idv.Verdict{SessionID: second.ID, Status: idv.SessionVerified}); err != nil || again.Status != idv.SessionVerified {
		t.Errorf("a repeated verdict succeeds: %+v %v", again, err)
	}
	if _, err := idv.Decide(ctx, store.Queries, idv.Verdict{SessionID: second.ID, Status: idv.SessionFailed}); !errors.Is(err, idv.ErrDecided) {
		t.Errorf("the other verdict is refused: %v", err)
	}
	third, _, err := idv.Start(ctx, store.Queries, p, sellerID, offerID, "https://tenure.example/checkout/offers/"+offerID.String())
	if err != nil || third.ID == second.ID || third.Status != idv.SessionPending {
		t.Errorf("after a verdict, asking again opens a new session: %+v %v", third, err)
	}
	if late, err := idv.Decide(ctx, store.Queries, idv.Verdict{SessionID: first.ID, Status: idv.SessionFailed}); err != nil || late.Status != idv.SessionFailed {
		t.Errorf("a verdict on a session whose link expired is still recorded: %+v %v", late, err)
	}
	if _, err := idv.Decide(ctx, store.Queries, idv.Verdict{SessionID: uuid.New(), Status: idv.SessionFailed}); !errors.Is(err, idv.ErrUnknownSession) {
		t.Errorf("an unknown session: %v", err)
	}
	var reference string
	if err := store.Pool.QueryRow(ctx, "SELECT provider_reference FROM idv_sessions WHERE id = $1", second.ID).Scan(&reference); err != nil || reference != "p-42" {
		t.Errorf("the provider's reference is kept for the operator: %q %v", reference, err)
	}
}

// Concurrent requests of one offer's customer share one session.
func TestOneOpenSessionUnderConcurrentRequests(t *testing.T) {
	store := testenv.Database(t)
	ctx := t.Context()
	s, err := auth.CreateSeller(ctx, store, "Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	offerID := uuid.Must(uuid.NewV7())
	err = store.CreateOffer(ctx, dbgen.CreateOfferParams{ID: offerID, SellerID: s.Seller.ID, SellerOfferReference: "r",
		SalesChannel: "ecommerce", Document: []byte(`{}`), ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	p := idv.NewProvider("idv.example", "https://idv.example/start", strings.Repeat("s", 32), 30*time.Minute)
	const callers = 16
	links := make([]string, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			_, links[i], errs[i] = idv.Start(ctx, store.Queries, p, s.Seller.ID, offerID, "https://tenure.example/checkout/offers/"+offerID.String())
		})
	}
	wg.Wait()
	for i := range callers {
		if errs[i] != nil || links[i] != links[0] {
			t.Errorf("caller %d: %v, link %s, caller 0's %s", i, errs[i], links[i], links[0])
		}
	}
	var sessions int
	if err := store.Pool.QueryRow(ctx, "SELECT count(*) FROM idv_sessions WHERE offer_id = $1", offerID).Scan(&sessions); err != nil || sessions != 1 {
		t.Errorf("%d concurrent requests opened %d sessions (%v)", callers, sessions, err)
	}
}
