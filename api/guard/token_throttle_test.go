package guard_test

import (
	"context"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// localCaller sends token requests to a real listener from a chosen
// address of 127.0.0.0/8, as clients on different machines would.
type localCaller struct {
	base   string
	client *http.Client
}

func newLocalCaller(base, address string) localCaller {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(address)}}
	return localCaller{base: base, client: &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return dialer.DialContext(ctx, network, addr)
		},
	}}}
}

func (l localCaller) token(t *testing.T, clientID, secret string, header http.Header) apitest.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, l.base+"/oauth2/token", strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(clientID+":"+secret)))
	resp, err := l.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return apitest.Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

func TestWrongSecretsAreThrottledWithoutLockingTheSellerOut(t *testing.T) {
	comparisons := guard.CountSecretComparisons(t)
	h := apitest.New(t)
	base := h.Serve(t)
	s := h.Seller(t)
	id, secret := s.Credentials.ClientID, s.Credentials.ClientSecret
	attacker, seller := newLocalCaller(base, "127.0.0.2"), newLocalCaller(base, "127.0.0.1")

	for i := range 5 {
		if resp := attacker.token(t, id, "tsk_wrong", nil); resp.Status != http.StatusUnauthorized {
			t.Fatalf("wrong secret %d: %d %s", i+1, resp.Status, resp.Body)
		}
	}
	if n := comparisons.Load(); n != 5 {
		t.Fatalf("%d comparisons for 5 wrong secrets", n)
	}
	for i := range 15 {
		resp := attacker.token(t, id, "tsk_wrong", nil)
		if resp.Status != http.StatusTooManyRequests {
			t.Fatalf("throttled attempt %d: %d %s", i+1, resp.Status, resp.Body)
		}
		if i == 0 {
			// The first failure comes back a minute after it was made.
			if wait := apitest.RetryAfter(t, resp); wait > 60 || resp.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("Retry-After %d, Cache-Control %q", wait, resp.Header.Get("Cache-Control"))
			}
			if !strings.Contains(string(resp.Body), `"error":"temporarily_unavailable"`) {
				t.Errorf("body %s", resp.Body)
			}
		}
	}
	if n := comparisons.Load(); n != 5 {
		t.Errorf("throttled attempts compared secrets: %d comparisons", n)
	}
	if resp := attacker.token(t, id, secret, nil); resp.Status != http.StatusTooManyRequests {
		t.Errorf("the throttled address is throttled even with the right secret: %d", resp.Status)
	}
	if resp := seller.token(t, id, secret, nil); resp.Status != http.StatusOK {
		t.Errorf("the seller, from its own address, is locked out: %d %s", resp.Status, resp.Body)
	}

	// Unknown client ids from one address spend that address's budget of
	// 20 failures, of which one comes back every 10 s.
	scanner := newLocalCaller(base, "127.0.0.3")
	start, refused := time.Now(), 0
	for i := 0; refused == 0 && i < 40; i++ {
		switch resp := scanner.token(t, "tnr_guess"+strconv.Itoa(i), "tsk_x", nil); resp.Status {
		case http.StatusUnauthorized:
		case http.StatusTooManyRequests:
			refused = i + 1
			if wait := apitest.RetryAfter(t, resp); wait > 10 {
				t.Errorf("Retry-After %d", wait)
			}
		default:
			t.Fatalf("unknown client %d: %d %s", i, resp.Status, resp.Body)
		}
	}
	if refilled := int(time.Since(start) / (10 * time.Second)); refused < 21 || refused > 21+refilled {
		t.Errorf("the address was refused at its attempt %d (%d failures came back meanwhile)", refused, refilled)
	}
	before := comparisons.Load()
	if resp := scanner.token(t, strings.Repeat("x", 1000), "tsk_x", nil); resp.Status != http.StatusTooManyRequests {
		t.Errorf("a throttled address with a long client id: %d", resp.Status)
	}
	if comparisons.Load() != before {
		t.Error("a throttled address compared a secret")
	}
	if resp := newLocalCaller(base, "127.0.0.4").token(t, strings.Repeat("x", 1000), "tsk_x", nil); resp.Status != http.StatusUnauthorized || comparisons.Load() != before {
		t.Errorf("a client id longer than any Tenure issues is refused unread: %d, %d comparisons", resp.Status, comparisons.Load()-before)
	}
	if resp := seller.token(t, id, secret, nil); resp.Status != http.StatusOK {
		t.Errorf("the seller still gets tokens: %d %s", resp.Status, resp.Body)
	}
}

func TestThrottlingBehindTrustedProxies(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.HTTP.TrustedProxies = []string{"127.0.0.1"} })
	base := h.Serve(t)
	s := h.Seller(t)
	id, secret := s.Credentials.ClientID, s.Credentials.ClientSecret
	proxy := newLocalCaller(base, "127.0.0.1")
	from := func(forwarded string) http.Header { return http.Header{"X-Forwarded-For": {forwarded}} }

	for range 5 {
		proxy.token(t, id, "tsk_wrong", from("198.51.100.1"))
	}
	if resp := proxy.token(t, id, "tsk_wrong", from("198.51.100.1")); resp.Status != http.StatusTooManyRequests {
		t.Fatalf("the attacker behind the proxy: %d", resp.Status)
	}
	// The attacker writes another address first; the proxy appends the real one.
	if resp := proxy.token(t, id, secret, from("198.51.100.2, 198.51.100.1")); resp.Status != http.StatusTooManyRequests {
		t.Errorf("a forged X-Forwarded-For entry escaped the throttle: %d", resp.Status)
	}
	if resp := proxy.token(t, id, secret, from("198.51.100.2")); resp.Status != http.StatusOK {
		t.Errorf("the seller behind the same proxy is locked out: %d %s", resp.Status, resp.Body)
	}
	// A client that is not a trusted proxy cannot name its address.
	direct := newLocalCaller(base, "127.0.0.5")
	for range 5 {
		direct.token(t, id, "tsk_wrong", from("198.51.100.3"))
	}
	if resp := direct.token(t, id, secret, from("198.51.100.4")); resp.Status != http.StatusTooManyRequests {
		t.Errorf("an untrusted peer chose its address through X-Forwarded-For: %d", resp.Status)
	}
}
