package guard_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// Oversized heads are refused with 414 or 431 and the contract's error
// object, over a real connection (fasthttp refuses a head that does not fit
// its read buffer before Fiber routes the request).
func TestOversizedHeadsAreRefused(t *testing.T) {
	h := apitest.New(t)
	base := h.Serve(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	cases := []struct {
		name   string
		path   string
		header map[string]string
		status int
		want   string
	}{
		{"10 KB path", "/v1/offers/ref/" + strings.Repeat("a", 10<<10), map[string]string{"Authorization": "Bearer " + token}, http.StatusRequestURITooLong, "the request URL is"},
		{"10 KB query", "/healthz?q=" + strings.Repeat("a", 10<<10), nil, http.StatusRequestURITooLong, "the request URL is"},
		{"9 KB header on /healthz", "/healthz", map[string]string{"X-Padding": strings.Repeat("p", 9<<10)}, http.StatusRequestHeaderFieldsTooLarge, `header "X-Padding" is longer than 8192 bytes`},
		{"head over 16 KiB", "/healthz", map[string]string{"X-A": strings.Repeat("a", 6<<10), "X-B": strings.Repeat("b", 6<<10), "X-C": strings.Repeat("c", 6<<10)}, http.StatusRequestHeaderFieldsTooLarge, "head is larger than this server accepts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			checkHeadRefusal(t, resp, raw, tc.status, tc.want)
		})
	}
}

// A megabyte of Basic credentials on the token endpoint is refused with
// 431, not stored by any cache. The request is written while the answer is
// read: the server answers as soon as its buffer is full.
func TestTokenEndpointRefusesHugeCredentials(t *testing.T) {
	h := apitest.New(t)
	addr := strings.TrimPrefix(h.Serve(t), "http://")
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	credentials := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("c", 1<<20) + ":secret"))
	go func() {
		_, _ = io.WriteString(conn, "POST /oauth2/token HTTP/1.1\r\nHost: tenure\r\nAuthorization: Basic "+credentials+
			"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 29\r\n\r\ngrant_type=client_credentials")
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	checkHeadRefusal(t, resp, raw, http.StatusRequestHeaderFieldsTooLarge, "head is larger than this server accepts")
}

func checkHeadRefusal(t *testing.T, resp *http.Response, raw []byte, status int, want string) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("got %d %s", resp.StatusCode, raw)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
	var e struct {
		Name    string `json:"name"`
		Message string `json:"message"`
		Fault   bool   `json:"fault"`
	}
	if err := json.Unmarshal(raw, &e); err != nil || e.Fault || !strings.Contains(e.Message, want) {
		t.Errorf("want the error object naming %q, got %s", want, raw)
	}
}
