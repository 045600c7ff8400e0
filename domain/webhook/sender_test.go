package webhook

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func testMessage(t *testing.T) Message {
	t.Helper()
	secret, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	return Message{ID: "evt-1", Type: OrderCreated, Body: []byte(`{"id":"o-1"}`), Secrets: []string{secret}, Timestamp: time.Now()}
}

func TestSenderClassifiesAnswers(t *testing.T) {
	var redirectFollowed atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/fail", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte("database down\x00" + strings.Repeat("x", 10_000)))
	})
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/ok-after-redirect", http.StatusFound)
	})
	mux.HandleFunc("/ok-after-redirect", func(w http.ResponseWriter, r *http.Request) { redirectFollowed.Store(true) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(time.Second):
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	refusedURL := "http://" + closed.Addr().String() + "/x"
	closed.Close()

	sender := NewSender(URLPolicy{AllowPrivate: true}, 300*time.Millisecond)
	cases := []struct {
		path      string
		delivered bool
		status    int
		class     string
	}{
		{srv.URL + "/ok", true, 204, ""},
		{srv.URL + "/fail", false, 500, ClassHTTPStatus},
		{srv.URL + "/gone", false, 410, ClassGone},
		{srv.URL + "/moved", false, 302, ClassRedirect},
		{srv.URL + "/slow", false, 0, ClassTimeout},
		{refusedURL, false, 0, ClassRefused},
	}
	for _, tc := range cases {
		out := sender.Send(t.Context(), tc.path, testMessage(t))
		if out.Delivered != tc.delivered || out.StatusCode != tc.status || out.ErrorClass != tc.class {
			t.Errorf("%s: got %+v", tc.path, out)
		}
	}
	if redirectFollowed.Load() {
		t.Error("a redirect was followed")
	}
	out := sender.Send(t.Context(), srv.URL+"/fail", testMessage(t))
	if n := len(out.Excerpt); n < excerptLimit || n > excerptLimit+2 || !strings.HasPrefix(out.Excerpt, "database down\uFFFDxxx") {
		t.Errorf("the excerpt is the first %d bytes, NUL replaced: %d bytes %.20q", excerptLimit, n, out.Excerpt)
	}
	if out := sender.Send(t.Context(), srv.URL+"/slow", testMessage(t)); out.Latency < 300*time.Millisecond || out.Latency > 2*time.Second {
		t.Errorf("a timed-out attempt lasts about the timeout, got %v", out.Latency)
	}
}

func TestSenderHeaders(t *testing.T) {
	got := make(chan *http.Request, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		got <- r
	}))
	defer srv.Close()
	m := testMessage(t)
	if out := NewSender(URLPolicy{AllowPrivate: true}, time.Second).Send(t.Context(), srv.URL, m); !out.Delivered {
		t.Fatalf("not delivered: %+v", out)
	}
	r := <-got
	signature, _ := Sign(m.ID, m.Timestamp, m.Body, m.Secrets...)
	for name, want := range map[string]string{
		"webhook-id": "evt-1", "svix-id": "evt-1", "webhook-event-type": OrderCreated,
		"webhook-signature": signature, "svix-signature": signature,
		"webhook-timestamp": r.Header.Get("svix-timestamp"), "Content-Type": "application/json", "User-Agent": UserAgent,
	} {
		if r.Header.Get(name) != want || want == "" {
			t.Errorf("header %s = %q, want %q", name, r.Header.Get(name), want)
		}
	}
	if r.Method != http.MethodPost {
		t.Errorf("method %s", r.Method)
	}
	if body, _ := io.ReadAll(r.Body); string(body) != string(m.Body) {
		t.Errorf("body %s", body)
	}
}

// In production the dialer refuses a loopback address even when the URL
// got past registration (as a name that later resolves there would): the
// connection is never made.
func TestProductionSenderRefusesNonPublicAddressesAtDialTime(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	out := NewSender(URLPolicy{}, time.Second).Send(t.Context(), srv.URL, testMessage(t))
	if out.Delivered || out.ErrorClass != ClassBlocked || !strings.Contains(out.Excerpt, "127.0.0.1") {
		t.Errorf("got %+v", out)
	}
	if hits.Load() != 0 {
		t.Error("the blocked request reached the server")
	}
}
