package testenv

import (
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Received is one webhook request a Receiver got.
type Received struct {
	ID     string
	Header http.Header
	Body   []byte
	// At is when the request arrived (its body read).
	At time.Time
	// Status is what the receiver answered.
	Status int
}

// Reply decides how a Receiver answers a request: attempt counts the
// requests with the same webhook-id, from 1. A delay postpones the answer
// (the request's cancellation ends the wait).
type Reply func(r *http.Request, attempt int) (status int, delay time.Duration)

// Always answers every request with status at once.
func Always(status int) Reply {
	return func(*http.Request, int) (int, time.Duration) { return status, 0 }
}

// Receiver is a real HTTP webhook receiver on 127.0.0.1 that keeps every
// request and de-duplicates by webhook-id, as a careful merchant would.
type Receiver struct {
	URL    string
	server *http.Server
	reply  Reply

	mu        sync.Mutex
	requests  []Received
	attempts  map[string]int
	delivered map[string]int
	changed   chan struct{}
}

// NewReceiver listens on a free port of 127.0.0.1 until the test ends.
func NewReceiver(t testing.TB, reply Reply) *Receiver {
	return NewReceiverAt(t, "127.0.0.1:0", reply)
}

// NewReceiverAt listens on addr until the test ends.
func NewReceiverAt(t testing.TB, addr string, reply Reply) *Receiver {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	r := &Receiver{URL: "http://" + ln.Addr().String() + "/webhooks", reply: reply,
		attempts: map[string]int{}, delivered: map[string]int{}, changed: make(chan struct{})}
	r.server = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.server.Serve(ln) }()
	t.Cleanup(r.Close)
	return r
}

// Close stops listening; connections to the port are refused afterwards.
func (r *Receiver) Close() { _ = r.server.Close() }

// ServeHTTP records the request and answers as the Reply says.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	arrived := time.Now()
	body, _ := io.ReadAll(req.Body)
	id := req.Header.Get("webhook-id")
	r.mu.Lock()
	r.attempts[id]++
	attempt := r.attempts[id]
	r.mu.Unlock()

	status, delay := r.reply(req, attempt)
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-req.Context().Done():
		}
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"received":true}`))

	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, Received{ID: id, Header: req.Header.Clone(), Body: body, At: arrived, Status: status})
	if status >= 200 && status < 300 {
		r.delivered[id]++
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// Requests returns every request so far, in arrival order.
func (r *Receiver) Requests() []Received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Received(nil), r.requests...)
}

// Delivered counts the 2xx-answered requests per webhook-id: a receiver
// that de-duplicates by id processes each id once, whatever the count.
func (r *Receiver) Delivered() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.delivered))
	for k, v := range r.delivered {
		out[k] = v
	}
	return out
}

// WaitDelivered waits until n distinct webhook-ids were answered with 2xx
// and fails the test after timeout.
func (r *Receiver) WaitDelivered(t testing.TB, n int, timeout time.Duration) map[string]int {
	t.Helper()
	deadline := time.After(timeout)
	for {
		r.mu.Lock()
		got, changed := len(r.delivered), r.changed
		r.mu.Unlock()
		if got >= n {
			return r.Delivered()
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("the receiver got %d of %d events within %s", got, n, timeout)
		}
	}
}
