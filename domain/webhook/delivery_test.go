package webhook_test

import (
	"bytes"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	svix "github.com/svix/svix-webhooks/go"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// verifiers are the official libraries merchants verify Tenure's
// signatures with.
func verify(t *testing.T, secret string, r testenv.Received) {
	t.Helper()
	sw, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.Verify(r.Body, r.Header); err != nil {
		t.Errorf("standard-webhooks rejects the delivery of %s: %v", r.ID, err)
	}
	sv, err := svix.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Verify(r.Body, r.Header); err != nil {
		t.Errorf("svix rejects the delivery of %s: %v", r.ID, err)
	}
	tampered := bytes.Replace(r.Body, []byte(`"accepted"`), []byte(`"declined"`), 1)
	if bytes.Equal(tampered, r.Body) {
		t.Fatalf("the body %s has nothing to tamper with", r.Body)
	}
	if sw.Verify(tampered, r.Header) == nil || sv.Verify(tampered, r.Header) == nil {
		t.Errorf("a tampered body of %s verifies", r.ID)
	}
}

func TestDeliveryIsSignedAndVerifiesWithTheOfficialLibraries(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	ep := s.endpoint(t, rcv.URL)

	eventID := s.emit(t, webhook.OfferAccepted)
	rcv.WaitDelivered(t, 1, 30*time.Second)
	got := rcv.Requests()[0]
	if got.ID != eventID.String() || got.Header.Get("svix-id") != eventID.String() {
		t.Errorf("webhook-id %q, svix-id %q, want the event id %s", got.ID, got.Header.Get("svix-id"), eventID)
	}
	ev, _ := s.store.GetEventByID(t.Context(), eventID)
	if !bytes.Equal(got.Body, ev.Payload) {
		t.Errorf("the body is not the recorded payload byte for byte:\n%s\n%s", got.Body, ev.Payload)
	}
	for name, want := range map[string]string{
		"webhook-event-type": webhook.OfferAccepted, "Content-Type": "application/json", "User-Agent": webhook.UserAgent,
	} {
		if got.Header.Get(name) != want {
			t.Errorf("%s: %q", name, got.Header.Get(name))
		}
	}
	if got.Header.Get("webhook-timestamp") != got.Header.Get("svix-timestamp") || got.Header.Get("webhook-signature") != got.Header.Get("svix-signature") {
		t.Error("the svix- headers differ from the webhook- ones")
	}
	verify(t, ep.Secret, got)

	dl := s.settled(t, eventID, ep.Endpoint.ID, 10*time.Second)
	if dl.Status != "delivered" || dl.Attempts != 1 || dl.DeliveredAt == nil {
		t.Errorf("delivery %+v", dl)
	}
	attempts := s.attempts(t, eventID)
	if len(attempts) != 1 || attempts[0].Outcome != "delivered" || *attempts[0].StatusCode != 200 || attempts[0].LatencyMs == nil {
		t.Errorf("attempts %+v", attempts)
	}
	if e, _ := s.store.GetEventByID(t.Context(), eventID); e.DispatchedAt == nil {
		t.Error("the event is not marked dispatched")
	}
}

// During a rotation every delivery carries two signatures: receivers that
// still hold the old secret and those that hold the new one both verify.
func TestDeliveriesDuringASecretRotation(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	ep := s.endpoint(t, rcv.URL)
	rotated, err := s.endpoints.Rotate(t.Context(), s.seller, ep.Endpoint.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rotated.Secret == ep.Secret || rotated.Endpoint.PreviousSecretExpiresAt == nil ||
		time.Until(*rotated.Endpoint.PreviousSecretExpiresAt) < 23*time.Hour {
		t.Fatalf("rotation: %+v", rotated.Endpoint)
	}
	s.emit(t, webhook.OfferAccepted)
	rcv.WaitDelivered(t, 1, 30*time.Second)
	got := rcv.Requests()[0]
	if n := len(bytes.Fields([]byte(got.Header.Get("webhook-signature")))); n != 2 {
		t.Errorf("%d signatures during the rotation, want 2", n)
	}
	verify(t, ep.Secret, got)
	verify(t, rotated.Secret, got)
}

func TestRotationOverlapEnds(t *testing.T) {
	s := newStack(t, func(c *config.Config) { c.Webhooks.RotationOverlap = 0 })
	s.worker(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	ep := s.endpoint(t, rcv.URL)
	rotated, err := s.endpoints.Rotate(t.Context(), s.seller, ep.Endpoint.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.emit(t, webhook.OfferAccepted)
	rcv.WaitDelivered(t, 1, 30*time.Second)
	got := rcv.Requests()[0]
	verify(t, rotated.Secret, got)
	sw, _ := standardwebhooks.NewWebhook(ep.Secret)
	if sw.Verify(got.Body, got.Header) == nil {
		t.Error("the old secret still verifies after its overlap ended")
	}
}

// 500, 500, then 200: the third attempt delivers, each attempt is recorded.
func TestFailedAttemptsAreRetriedAndRecorded(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	rcv := testenv.NewReceiver(t, func(_ *http.Request, attempt int) (int, time.Duration) {
		if attempt <= 2 {
			return http.StatusInternalServerError, 0
		}
		return http.StatusOK, 0
	})
	ep := s.endpoint(t, rcv.URL)
	eventID := s.emit(t, webhook.OrderCreated)
	dl := s.settled(t, eventID, ep.Endpoint.ID, 30*time.Second)
	if dl.Status != "delivered" || dl.Attempts != 3 {
		t.Errorf("delivery %+v", dl)
	}
	attempts := s.attempts(t, eventID)
	var outcomes []string
	for _, a := range attempts {
		outcomes = append(outcomes, a.Outcome+"/"+deref(a.ErrorClass))
	}
	if !slices.Equal(outcomes, []string{"failed/http_status", "failed/http_status", "delivered/"}) {
		t.Errorf("attempts %v", outcomes)
	}
	reqs := rcv.Requests()
	if len(reqs) != 3 || reqs[0].ID != reqs[2].ID || reqs[0].Header.Get("webhook-timestamp") == "" {
		t.Errorf("three requests with one id: %d", len(reqs))
	}
	if gap := reqs[1].At.Sub(reqs[0].At); gap < fastSchedule[1] {
		t.Errorf("the second attempt came %v after the first, before the schedule's %v", gap, fastSchedule[1])
	}
}

func TestExhaustedDeliveryIsMarkedFailed(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusServiceUnavailable))
	ep := s.endpoint(t, rcv.URL)
	eventID := s.emit(t, webhook.OrderCanceled)
	dl := s.settled(t, eventID, ep.Endpoint.ID, 30*time.Second)
	if dl.Status != "failed" || int(dl.Attempts) != len(fastSchedule) || len(rcv.Requests()) != len(fastSchedule) {
		t.Errorf("delivery %+v after %d requests", dl, len(rcv.Requests()))
	}
}

// A redirect is a failed attempt; the redirect target is never called.
func TestRedirectsAreNotFollowed(t *testing.T) {
	s := newStack(t, func(c *config.Config) { c.Webhooks.RetrySchedule = fastSchedule[:1] })
	s.worker(t)
	target := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	rcv := testenv.NewReceiver(t, func(r *http.Request, _ int) (int, time.Duration) { return http.StatusPermanentRedirect, 0 })
	ep := s.endpoint(t, rcv.URL)
	eventID := s.emit(t, webhook.OrderCompleted)
	if dl := s.settled(t, eventID, ep.Endpoint.ID, 30*time.Second); dl.Status != "failed" {
		t.Errorf("delivery %+v", dl)
	}
	if a := s.attempts(t, eventID); len(a) != 1 || deref(a[0].ErrorClass) != webhook.ClassRedirect || *a[0].StatusCode != 308 {
		t.Errorf("attempts %+v", a)
	}
	if len(target.Requests()) != 0 {
		t.Error("the redirect was followed")
	}
}

// 410 disables the endpoint; its other pending deliveries stop and are
// cancelled, and nothing more is sent to it.
func TestGoneDisablesTheEndpoint(t *testing.T) {
	s := newStack(t, func(c *config.Config) {
		c.Webhooks.RetrySchedule = []time.Duration{0, 2 * time.Second, 2 * time.Second}
	})
	s.worker(t)
	failing := testenv.NewReceiver(t, testenv.Always(http.StatusInternalServerError))
	ep := s.endpoint(t, failing.URL)
	pending := s.emit(t, webhook.OfferVoided)
	deadline := time.Now().Add(20 * time.Second)
	for len(failing.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	// The receiver is replaced by one that answers 410.
	failing.Close()
	_ = testenv.NewReceiverAt(t, hostOf(failing.URL), testenv.Always(http.StatusGone))
	gone := s.emit(t, webhook.OfferExpired)
	if dl := s.settled(t, gone, ep.Endpoint.ID, 20*time.Second); dl.Status != "failed" {
		t.Errorf("the 410 delivery: %+v", dl)
	}
	if dl := s.settled(t, pending, ep.Endpoint.ID, 20*time.Second); dl.Status != "cancelled" {
		t.Errorf("the pending delivery: %+v", dl)
	}
	got, _ := s.store.GetWebhookEndpointByID(t.Context(), ep.Endpoint.ID)
	if got.DisabledAt == nil || deref(got.DisabledReason) == "" {
		t.Errorf("endpoint %+v", got)
	}
	time.Sleep(3 * time.Second) // past the pending delivery's next wake-up
	if a := s.attempts(t, pending); len(a) != 1 {
		t.Errorf("the cancelled delivery kept sending: %d attempts", len(a))
	}
	if later := s.emit(t, webhook.OfferAccepted); len(s.attempts(t, later)) != 0 {
		t.Error("a disabled endpoint is dispatched to")
	}

	enabled := true
	if _, err := s.endpoints.Update(t.Context(), s.seller, ep.Endpoint.ID, webhook.EndpointChange{Enabled: &enabled}); err != nil {
		t.Fatal(err)
	}
	again, _ := s.store.GetWebhookEndpointByID(t.Context(), ep.Endpoint.ID)
	if again.DisabledAt != nil || again.DisabledReason != nil {
		t.Errorf("re-enabled endpoint %+v", again)
	}
}

// The receiver's port refuses connections for a while, then a receiver
// starts there: every event arrives, each with its original id.
func TestReceiverDownThenUp(t *testing.T) {
	s := newStack(t, func(c *config.Config) {
		c.Webhooks.RetrySchedule = []time.Duration{0, 500 * time.Millisecond, time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}
	})
	s.worker(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: connections are refused
	ep := s.endpoint(t, "http://"+addr+"/webhooks")
	ids := map[string]bool{}
	for range 10 {
		ids[s.emit(t, webhook.OrderCreated).String()] = true
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		var refused int
		_ = s.store.Pool.QueryRow(t.Context(), "SELECT count(DISTINCT event_id) FROM webhook_attempts WHERE error_class = 'connection_refused'").Scan(&refused)
		if refused == len(ids) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d events saw the refusal", refused)
		}
		time.Sleep(50 * time.Millisecond)
	}
	rcv := testenv.NewReceiverAt(t, addr, testenv.Always(http.StatusOK))
	delivered := rcv.WaitDelivered(t, len(ids), 30*time.Second)
	for id := range delivered {
		if !ids[id] {
			t.Errorf("unknown id %s arrived", id)
		}
	}
	for id := range ids {
		if delivered[id] == 0 {
			t.Errorf("event %s never arrived", id)
		}
		if dl := s.settled(t, mustUUID(t, id), ep.Endpoint.ID, 10*time.Second); dl.Status != "delivered" || dl.Attempts < 2 {
			t.Errorf("delivery %+v", dl)
		}
	}
}

// A receiver that takes 20 s exceeds the real 15 s limit: the attempt is
// recorded as a timeout and the next one delivers.
func TestSlowReceiverTimesOutAndIsRetried(t *testing.T) {
	s := newStack(t, func(c *config.Config) {
		c.Webhooks.AttemptTimeout = 15 * time.Second
		c.Webhooks.RetrySchedule = []time.Duration{0, time.Second}
	})
	s.worker(t)
	rcv := testenv.NewReceiver(t, func(_ *http.Request, attempt int) (int, time.Duration) {
		if attempt == 1 {
			return http.StatusOK, 20 * time.Second
		}
		return http.StatusOK, 0
	})
	ep := s.endpoint(t, rcv.URL)
	eventID := s.emit(t, webhook.OfferPendingReview)
	dl := s.settled(t, eventID, ep.Endpoint.ID, 60*time.Second)
	if dl.Status != "delivered" || dl.Attempts != 2 {
		t.Errorf("delivery %+v", dl)
	}
	a := s.attempts(t, eventID)
	if len(a) != 2 || a[0].Outcome != "failed" || deref(a[0].ErrorClass) != webhook.ClassTimeout ||
		deref(a[0].LatencyMs) < 15_000 || deref(a[0].LatencyMs) > 17_000 || a[1].Outcome != "delivered" {
		t.Errorf("attempts %+v", a)
	}
}

// An endpoint registered in the sandbox on 127.0.0.1, then delivered to by
// a production worker: the dialer refuses the address and the attempt is
// recorded as blocked.
func TestProductionRefusesLoopbackAtDialTime(t *testing.T) {
	s := newStack(t, func(c *config.Config) { c.Webhooks.RetrySchedule = fastSchedule[:2] })
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	ep := s.endpoint(t, rcv.URL)
	s.cfg.Environment = config.Production
	s.worker(t)
	eventID := s.emit(t, webhook.OrderCreated)
	if dl := s.settled(t, eventID, ep.Endpoint.ID, 30*time.Second); dl.Status != "failed" {
		t.Errorf("delivery %+v", dl)
	}
	for _, a := range s.attempts(t, eventID) {
		if deref(a.ErrorClass) != webhook.ClassBlocked {
			t.Errorf("attempt %+v", a)
		}
	}
	if len(rcv.Requests()) != 0 {
		t.Error("the production worker reached 127.0.0.1")
	}
}

// An event committed but never dispatched (the process died after its
// commit) is dispatched by the worker's relay.
func TestRelayDispatchesCommittedEvents(t *testing.T) {
	s := newStack(t, func(c *config.Config) { c.Webhooks.RelayGrace = 200 * time.Millisecond })
	s.worker(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	s.endpoint(t, rcv.URL)
	id := s.record(t, webhook.OrderCreated)
	if got := rcv.WaitDelivered(t, 1, 30*time.Second); got[id.String()] != 1 {
		t.Errorf("got %v", got)
	}
}

// An event no endpoint subscribes to is dispatched by the transaction that
// finds it has no recipient, with no delivery; an endpoint registered
// afterwards does not receive it.
func TestEventWithoutRecipientsIsDispatchedAtOnce(t *testing.T) {
	s := newStack(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	s.endpoint(t, rcv.URL+"?offers-only", webhook.OfferAccepted)
	id := s.record(t, webhook.OrderCreated)
	if err := s.dispatcher.Dispatch(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	e, err := s.store.GetEventByID(t.Context(), id)
	if err != nil || e.DispatchedAt == nil {
		t.Fatalf("the event is not dispatched: %+v %v", e, err)
	}
	if deliveries, err := s.store.ListEventDeliveries(t.Context(), id); err != nil || len(deliveries) != 0 {
		t.Errorf("deliveries %+v %v", deliveries, err)
	}
	s.endpoint(t, rcv.URL)
	if err := s.dispatcher.Dispatch(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	if deliveries, err := s.store.ListEventDeliveries(t.Context(), id); err != nil || len(deliveries) != 0 {
		t.Errorf("a dispatched event was dispatched again: %+v %v", deliveries, err)
	}
}

// Dispatching an event twice, or from two places at once, delivers it once.
func TestDispatchIsIdempotent(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	a := s.endpoint(t, rcv.URL)
	b := s.endpoint(t, rcv.URL+"?second", webhook.OrderCreated)
	s.endpoint(t, rcv.URL+"?offers-only", webhook.OfferAccepted)
	id := s.record(t, webhook.OrderCreated)
	done := make(chan error, 3)
	for range 3 {
		go func() { done <- s.dispatcher.Dispatch(t.Context(), id, id) }()
	}
	for range 3 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	s.settled(t, id, a.Endpoint.ID, 30*time.Second)
	s.settled(t, id, b.Endpoint.ID, 30*time.Second)
	if err := s.dispatcher.Dispatch(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if n := len(rcv.Requests()); n != 2 {
		t.Errorf("%d requests for one event and two subscribed endpoints", n)
	}
}

// A redelivery is a new run with the same webhook-id; while a delivery of
// the event runs, redelivery is refused.
func TestRedeliver(t *testing.T) {
	s := newStack(t, func(c *config.Config) { c.Webhooks.RetrySchedule = []time.Duration{0, 3 * time.Second} })
	s.worker(t)
	rcv := testenv.NewReceiver(t, func(_ *http.Request, attempt int) (int, time.Duration) {
		if attempt == 1 {
			return http.StatusInternalServerError, 0
		}
		return http.StatusOK, 0
	})
	ep := s.endpoint(t, rcv.URL)
	id := s.emit(t, webhook.OfferDeclined)
	if _, err := s.dispatcher.Redeliver(t.Context(), s.seller, id); err != webhook.ErrDeliveryRunning {
		t.Errorf("redelivery while the first run waits: %v", err)
	}
	s.settled(t, id, ep.Endpoint.ID, 30*time.Second)
	runs, err := s.dispatcher.Redeliver(t.Context(), s.seller, id)
	if err != nil || len(runs) != 1 || runs[0].Run != 2 {
		t.Fatalf("redeliver: %+v %v", runs, err)
	}
	dl := s.settled(t, id, ep.Endpoint.ID, 30*time.Second)
	if dl.Status != "delivered" || dl.Run != 2 || dl.Attempts != 3 {
		t.Errorf("delivery %+v", dl)
	}
	reqs := rcv.Requests()
	if len(reqs) != 3 || reqs[2].ID != id.String() {
		t.Errorf("%d requests; the redelivery carries the same id", len(reqs))
	}
	if _, err := s.dispatcher.Redeliver(t.Context(), uuidOther(), id); err != webhook.ErrNotFound {
		t.Errorf("another seller's event: %v", err)
	}
	if a := s.attempts(t, id); len(a) != 3 || a[2].Run != 2 || a[2].Attempt != 1 {
		t.Errorf("attempts %+v", a)
	}
}

func TestPingGoesToItsEndpointOnly(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	other := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	ep := s.endpoint(t, rcv.URL, webhook.OrderCreated)
	s.endpoint(t, other.URL)
	id, err := s.dispatcher.Ping(t.Context(), s.seller, ep.Endpoint.ID)
	if err != nil {
		t.Fatal(err)
	}
	rcv.WaitDelivered(t, 1, 30*time.Second)
	got := rcv.Requests()[0]
	if got.ID != id.String() || got.Header.Get("webhook-event-type") != webhook.Ping {
		t.Errorf("ping %+v", got.Header)
	}
	sw, _ := standardwebhooks.NewWebhook(ep.Secret)
	if err := sw.Verify(got.Body, got.Header); err != nil {
		t.Errorf("the ping does not verify: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	if len(other.Requests()) != 0 {
		t.Error("the ping went to another endpoint")
	}
	disabled := false
	if _, err := s.endpoints.Update(t.Context(), s.seller, ep.Endpoint.ID, webhook.EndpointChange{Enabled: &disabled}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.dispatcher.Ping(t.Context(), s.seller, ep.Endpoint.ID); err != webhook.ErrEndpointDisabled {
		t.Errorf("ping of a disabled endpoint: %v", err)
	}
}

func TestRecordIsIdempotentAndValidates(t *testing.T) {
	s := newStack(t)
	id := webhook.EventID("offer/1234/accepted")
	if id != webhook.EventID("offer/1234/accepted") || id == webhook.EventID("offer/1234/declined") {
		t.Fatal("EventID is not a function of its source")
	}
	object := uuidOther()
	for range 2 {
		err := s.store.InTx(t.Context(), func(q *dbgen.Queries) error {
			got, err := webhook.Record(t.Context(), q, webhook.NewEvent{ID: id, SellerID: s.seller, Type: webhook.OfferAccepted, ObjectID: object, Payload: []byte(`{"id":"1"}`)})
			if got != id {
				t.Errorf("recorded as %s", got)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var n int
	_ = s.store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM events").Scan(&n)
	if n != 1 {
		t.Errorf("%d events after recording one twice", n)
	}
	for name, ev := range map[string]webhook.NewEvent{
		"unknown type": {SellerID: s.seller, Type: "offer.exploded", ObjectID: object, Payload: []byte(`{}`)},
		"bad payload":  {SellerID: s.seller, Type: webhook.OfferAccepted, ObjectID: object, Payload: []byte(`{`)},
		"no seller":    {Type: webhook.OfferAccepted, ObjectID: object, Payload: []byte(`{}`)},
	} {
		err := s.store.InTx(t.Context(), func(q *dbgen.Queries) error {
			_, err := webhook.Record(t.Context(), q, ev)
			return err
		})
		if err == nil {
			t.Errorf("%s: recorded", name)
		}
	}
}

// Several workers' relays running at once share the undispatched events:
// each is delivered once.
func TestConcurrentRelaysDeliverEachEventOnce(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	s.endpoint(t, rcv.URL)
	const events = 40
	for range events {
		s.record(t, webhook.OrderCreated)
	}
	relays := make(chan struct{}, 4)
	for range 4 {
		relay := webhook.NewRelay(s.dispatcher, time.Hour, 0, nil)
		go func() {
			for range 3 {
				if _, err := relay.RunOnce(t.Context()); err != nil {
					t.Error(err)
				}
			}
			relays <- struct{}{}
		}()
	}
	// Two relays may both take an event between the commit of its
	// deliveries and its dispatch mark; the delivery rows and workflow ids
	// make the second take a no-op, which the receiver checks below.
	for range 4 {
		<-relays
	}
	var undispatched int
	if err := s.store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM events WHERE dispatched_at IS NULL").Scan(&undispatched); err != nil {
		t.Fatal(err)
	}
	if undispatched != 0 {
		t.Errorf("%d events left undispatched by the relays", undispatched)
	}
	delivered := rcv.WaitDelivered(t, events, 30*time.Second)
	time.Sleep(300 * time.Millisecond)
	for id, n := range delivered {
		if n != 1 {
			t.Errorf("event %s delivered %d times", id, n)
		}
	}
	if n := len(rcv.Requests()); n != events {
		t.Errorf("%d requests for %d events", n, events)
	}
}
