package guard_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// testClock is a clock the tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// keyRig serves POST /things behind the idempotency middleware over a real
// database, with a handler each test sets, a hand-moved clock and the
// caller named by the X-Caller header.
type keyRig struct {
	app     *fiber.App
	store   *db.Store
	keys    guard.KeyMiddleware
	clock   *testClock
	mu      sync.Mutex
	handler fiber.Handler
	// seen are the reservations the handler ran under, in order.
	seen []idempotency.Reservation
}

const rigLease = 1500 * time.Millisecond

func newKeyRig(t *testing.T) *keyRig {
	t.Helper()
	store := testenv.Database(t)
	box, err := webhook.NewSecretBox(strings.Repeat("k", 32))
	if err != nil {
		t.Fatal(err)
	}
	r := &keyRig{store: store, clock: &testClock{now: time.Now()}}
	r.keys = guard.NewKeyMiddleware(store, box, rigLease, r.clock.Now, testenv.AppLogger(), func(c *fiber.Ctx) (string, bool) {
		caller := c.Get("X-Caller")
		return caller, caller != ""
	})
	r.app = fiber.New(fiber.Config{ErrorHandler: guard.ErrorHandler(testenv.AppLogger())})
	r.app.Use(recover.New())
	r.app.Post("/things", r.keys.Handle, func(c *fiber.Ctx) error {
		r.mu.Lock()
		r.seen = append(r.seen, reservationOf(c))
		h := r.handler
		r.mu.Unlock()
		return h(c)
	})
	r.setHandler(created)
	return r
}

// reservationOf is the reservation a handler runs under (zero without one).
func reservationOf(c *fiber.Ctx) idempotency.Reservation {
	id := idempotency.NewID(c.UserContext())
	if idempotency.UpdateID(c.UserContext()) == "" {
		return idempotency.Reservation{}
	}
	return idempotency.Reservation{ID: id, Resumed: idempotency.Resumed(c.UserContext())}
}

// created answers 201 with the id the request's resource gets.
func created(c *fiber.Ctx) error {
	return c.Status(http.StatusCreated).JSON(map[string]string{"id": idempotency.NewID(c.UserContext()).String()})
}

func (r *keyRig) setHandler(h fiber.Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.handler = h
}

// blockHandler makes the handler stop until release is closed, after
// closing entered: a request that is deterministically in flight.
func (r *keyRig) blockHandler() (entered, release chan struct{}) {
	entered, release = make(chan struct{}), make(chan struct{})
	r.setHandler(func(c *fiber.Ctx) error {
		close(entered)
		<-release
		return created(c)
	})
	return entered, release
}

func (r *keyRig) runs() []idempotency.Reservation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]idempotency.Reservation(nil), r.seen...)
}

type rigResponse struct {
	status int
	header http.Header
	body   string
}

func (r *keyRig) post(t *testing.T, caller, key, body string) rigResponse {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/things", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if caller != "" {
		req.Header.Set("X-Caller", caller)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := r.app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return rigResponse{status: resp.StatusCode, header: resp.Header, body: string(raw)}
}

func (r *keyRig) row(t *testing.T, caller, key string) (dbgen.IdempotencyKey, bool) {
	t.Helper()
	row, err := r.store.GetIdempotencyKey(t.Context(), dbgen.GetIdempotencyKeyParams{Caller: caller, Key: key})
	if db.IsNotFound(err) {
		return row, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return row, true
}

func errorName(t *testing.T, body string) string {
	t.Helper()
	var e struct{ Name, Message string }
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return e.Name
}

// A request still in flight makes a second one with its key answer 409;
// once it completed, retries get its outcome.
func TestKeyInFlightAnswersConflict(t *testing.T) {
	r := newKeyRig(t)
	entered, release := r.blockHandler()
	first := make(chan rigResponse)
	go func() { first <- r.post(t, "seller/a", "k1", `{"n":1}`) }()
	<-entered

	second := r.post(t, "seller/a", "k1", `{"n":1}`)
	if second.status != http.StatusConflict || errorName(t, second.body) != "idempotency_key_in_use" ||
		!strings.Contains(second.body, `"temporary":true`) {
		t.Errorf("concurrent duplicate: %d %s", second.status, second.body)
	}
	close(release)
	answer := <-first
	if answer.status != http.StatusCreated || answer.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first request: %d %v %s", answer.status, answer.header, answer.body)
	}
	retry := r.post(t, "seller/a", "k1", `{"n":1}`)
	if retry.status != http.StatusCreated || retry.body != answer.body || retry.header.Get("Idempotent-Replayed") != "true" ||
		retry.header.Get("Content-Type") != answer.header.Get("Content-Type") {
		t.Errorf("retry: %d %v %s, want the first outcome %s", retry.status, retry.header, retry.body, answer.body)
	}
	if n := len(r.runs()); n != 1 {
		t.Errorf("the handler ran %d times", n)
	}
}

// The lease of a request keeps renewing while it runs, however long.
func TestLeaseIsRenewedWhileTheRequestRuns(t *testing.T) {
	r := newKeyRig(t)
	entered, release := r.blockHandler()
	go func() { r.post(t, "seller/a", "slow", `{}`) }()
	<-entered
	// Two lease lengths pass on both clocks: the renewals keep up.
	for range 2 {
		r.clock.advance(rigLease)
		time.Sleep(rigLease)
	}
	if resp := r.post(t, "seller/a", "slow", `{}`); resp.status != http.StatusConflict {
		t.Errorf("a running request was taken over: %d %s", resp.status, resp.body)
	}
	close(release)
}

// A key is kept 24 hours; then it may name a new request, and the purge
// deletes it.
func TestKeysExpireAfter24Hours(t *testing.T) {
	r := newKeyRig(t)
	if resp := r.post(t, "seller/a", "day", `{"v":"a"}`); resp.status != http.StatusCreated {
		t.Fatalf("%d %s", resp.status, resp.body)
	}
	r.clock.advance(24*time.Hour - time.Second)
	if resp := r.post(t, "seller/a", "day", `{"v":"b"}`); resp.status != http.StatusUnprocessableEntity {
		t.Errorf("within 24 h the key is bound to its first request: %d %s", resp.status, resp.body)
	}
	if n, err := r.keys.Purge(t.Context()); err != nil || n != 0 {
		t.Errorf("purged %d live keys: %v", n, err)
	}
	r.clock.advance(2 * time.Second)
	if resp := r.post(t, "seller/a", "day", `{"v":"b"}`); resp.status != http.StatusCreated || resp.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("after 24 h the key is free: %d %s", resp.status, resp.body)
	}
	if runs := r.runs(); len(runs) != 2 || runs[0].ID == runs[1].ID {
		t.Errorf("an expired key's new request gets a new reservation: %+v", runs)
	}

	r.clock.advance(24 * time.Hour)
	if n, err := r.keys.Purge(t.Context()); err != nil || n != 1 {
		t.Errorf("purge deleted %d keys: %v", n, err)
	}
	if _, ok := r.row(t, "seller/a", "day"); ok {
		t.Error("the expired key is still stored")
	}
}

// A request whose process died after claiming its key (no renewals, no
// outcome) is taken over once its lease ran out, under the same
// reservation, marked resumed.
func TestStaleKeyIsResumedUnderItsReservation(t *testing.T) {
	r := newKeyRig(t)
	body := `{"reference":"r1"}`
	dead, err := r.keys.Claim(t.Context(), "seller/a", "crash", "/things", []byte(body))
	if err != nil || dead.ID == uuid.Nil {
		t.Fatalf("claim: %+v %v", dead, err)
	}
	if resp := r.post(t, "seller/a", "crash", body); resp.status != http.StatusConflict {
		t.Errorf("within the lease: %d %s", resp.status, resp.body)
	}
	r.clock.advance(rigLease)
	resp := r.post(t, "seller/a", "crash", body)
	want := idempotency.Reservation{ID: dead.ID, Resumed: true}
	if runs := r.runs(); resp.status != http.StatusCreated || len(runs) != 1 || runs[0] != want {
		t.Fatalf("takeover: %d %s, runs %+v, want %+v", resp.status, resp.body, runs, want)
	}
	if !strings.Contains(resp.body, want.ID.String()) {
		t.Errorf("the resumed request's resource has another id: %s", resp.body)
	}
	if row, _ := r.row(t, "seller/a", "crash"); row.Status == nil || *row.Status != http.StatusCreated || row.LeaseToken != nil {
		t.Errorf("the resumed request's outcome is not recorded: %+v", row)
	}
}

// Answers that say "later" (5xx, a panic, 429) keep the key with its
// request: a retry resumes it under the same reservation, another request
// with the key is refused.
func TestLaterOutcomesKeepTheReservation(t *testing.T) {
	for name, fail := range map[string]fiber.Handler{
		"unavailable": func(*fiber.Ctx) error { return apierror.Unavailable("the workflow did not answer in time") },
		"panic":       func(*fiber.Ctx) error { panic("handler bug") },
		"busy":        func(*fiber.Ctx) error { return apierror.TooManyRequests("too many imports") },
	} {
		t.Run(name, func(t *testing.T) {
			r := newKeyRig(t)
			r.setHandler(fail)
			if resp := r.post(t, "seller/a", "k", `{"a":1}`); resp.status < 429 {
				t.Fatalf("%d %s", resp.status, resp.body)
			}
			if resp := r.post(t, "seller/a", "k", `{"a":2}`); resp.status != http.StatusUnprocessableEntity {
				t.Errorf("another request with the key: %d %s", resp.status, resp.body)
			}
			r.setHandler(created)
			if resp := r.post(t, "seller/a", "k", `{"a":1}`); resp.status != http.StatusCreated {
				t.Fatalf("retry: %d %s", resp.status, resp.body)
			}
			runs := r.runs()
			if len(runs) != 2 || runs[1].ID != runs[0].ID || runs[0].Resumed || !runs[1].Resumed {
				t.Errorf("the retry does not resume the first attempt: %+v", runs)
			}
		})
	}
}

// A request refused as sent (400) leaves no trace: the key may be sent
// again with another request.
func TestRefusalsForgetTheKey(t *testing.T) {
	r := newKeyRig(t)
	r.setHandler(func(*fiber.Ctx) error { return apierror.BadRequest("field name is required") })
	if resp := r.post(t, "seller/a", "k", `{}`); resp.status != http.StatusBadRequest {
		t.Fatalf("%d %s", resp.status, resp.body)
	}
	if _, ok := r.row(t, "seller/a", "k"); ok {
		t.Error("a refused request's key is kept")
	}
	r.setHandler(created)
	if resp := r.post(t, "seller/a", "k", `{"name":"x"}`); resp.status != http.StatusCreated {
		t.Errorf("the corrected request: %d %s", resp.status, resp.body)
	}
}

// Keys belong to their caller; a request without a caller (or a key) is
// served as it comes.
func TestKeysAreScopedToTheCaller(t *testing.T) {
	r := newKeyRig(t)
	a := r.post(t, "seller/a", "shared", `{}`)
	b := r.post(t, "seller/b", "shared", `{}`)
	if a.status != http.StatusCreated || b.status != http.StatusCreated || a.body == b.body || b.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("seller b got seller a's outcome: %s / %s", a.body, b.body)
	}
	r.post(t, "", "shared", `{}`)
	r.post(t, "seller/a", "", `{}`)
	if runs := r.runs(); len(runs) != 4 || runs[2] != (idempotency.Reservation{}) || runs[3] != (idempotency.Reservation{}) {
		t.Errorf("runs %+v", runs)
	}
}

// Recorded answers are sealed at rest: they may carry a webhook secret.
func TestRecordedOutcomesAreSealed(t *testing.T) {
	r := newKeyRig(t)
	r.setHandler(func(c *fiber.Ctx) error {
		return c.Status(http.StatusCreated).JSON(map[string]string{"secret": "whsec_c2VjcmV0LXNpZ25pbmcta2V5"})
	})
	first := r.post(t, "seller/a", "sealed", `{}`)
	row, _ := r.row(t, "seller/a", "sealed")
	if bytes.Contains(row.Body, []byte("whsec_")) || len(row.Body) == 0 {
		t.Errorf("the stored body is readable: %q", row.Body)
	}
	if again := r.post(t, "seller/a", "sealed", `{}`); again.body != first.body {
		t.Errorf("replay %s, want %s", again.body, first.body)
	}
}

// JSON bodies are compared by value; the query is part of the request.
func TestFingerprint(t *testing.T) {
	same := [][2]string{
		{`{"a":1,"b":[1,2]}`, "{ \"b\": [1, 2],\n \"a\": 1 }"},
		{`not json`, `not json`},
	}
	for _, p := range same {
		if !bytes.Equal(guard.Fingerprint("POST", "/x", []byte(p[0])), guard.Fingerprint("POST", "/x", []byte(p[1]))) {
			t.Errorf("%s and %s differ", p[0], p[1])
		}
	}
	different := [][2]string{
		{`{"a":1}`, `{"a":1.0}`},
		{`{"a":1}`, `{"a":"1"}`},
		{`{"a":1} {"b":2}`, `{"a":1}`},
	}
	for _, p := range different {
		if bytes.Equal(guard.Fingerprint("POST", "/x", []byte(p[0])), guard.Fingerprint("POST", "/x", []byte(p[1]))) {
			t.Errorf("%s and %s are the same", p[0], p[1])
		}
	}
	if bytes.Equal(guard.Fingerprint("POST", "/x?limit=1", nil), guard.Fingerprint("POST", "/x?limit=2", nil)) {
		t.Error("the query does not count")
	}
}
