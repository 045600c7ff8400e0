package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/domain/auth"
)

func TestRotationRevokesIssuedTokens(t *testing.T) {
	h := newHarness(t)
	s := h.seller(t)
	old := h.token(t, s, "client")
	if resp := h.do(t, http.MethodGet, "/v1/shipping-method?page=0", old, nil); resp.status != http.StatusOK {
		t.Fatalf("before the rotation: %d %s", resp.status, resp.body)
	}
	_, rotated, err := auth.RotateSecret(t.Context(), h.store, s.Credentials.ClientID)
	if err != nil {
		t.Fatal(err)
	}
	resp := h.do(t, http.MethodGet, "/v1/shipping-method?page=0", old, nil)
	if resp.status != http.StatusUnauthorized {
		t.Fatalf("a token issued before the rotation: %d %s", resp.status, resp.body)
	}
	var msg string
	if err := json.Unmarshal(resp.body, &msg); err != nil || !strings.Contains(msg, "revoked") {
		t.Errorf("the refusal says the token was revoked: %s", resp.body)
	}
	grant := url.Values{"grant_type": {"client_credentials"}}
	if resp := h.tokenRequest(t, s.Credentials.ClientID, s.Credentials.ClientSecret, grant); resp.status != http.StatusUnauthorized {
		t.Errorf("the old secret: %d %s", resp.status, resp.body)
	}
	fresh := h.token(t, auth.NewSeller{Seller: s.Seller, Credentials: rotated}, "client")
	if resp := h.do(t, http.MethodGet, "/v1/shipping-method?page=0", fresh, nil); resp.status != http.StatusOK {
		t.Errorf("a token of the new secret: %d %s", resp.status, resp.body)
	}
}

// TestRotationRevokesTokensOfAListeningServer starts the API's listener,
// with which it caches generations and learns of rotations from
// PostgreSQL's notifications.
func TestRotationRevokesTokensOfAListeningServer(t *testing.T) {
	h := newHarness(t)
	h.serveListening(t)
	s := h.seller(t)
	old := h.token(t, s, "client")
	for range 3 {
		if resp := h.do(t, http.MethodGet, "/v1/shipping-method?page=0", old, nil); resp.status != http.StatusOK {
			t.Fatalf("before the rotation: %d %s", resp.status, resp.body)
		}
	}
	_, rotated, err := auth.RotateSecret(t.Context(), h.store, s.Credentials.ClientID)
	if err != nil {
		t.Fatal(err)
	}
	rotatedAt := time.Now()
	for {
		resp := h.do(t, http.MethodGet, "/v1/shipping-method?page=0", old, nil)
		if resp.status == http.StatusUnauthorized {
			break
		}
		if resp.status != http.StatusOK || time.Since(rotatedAt) > 10*time.Second {
			t.Fatalf("the old token %s after the rotation: %d %s", time.Since(rotatedAt), resp.status, resp.body)
		}
	}
	t.Logf("the old token was refused %s after the rotation committed", time.Since(rotatedAt))
	fresh := h.token(t, auth.NewSeller{Seller: s.Seller, Credentials: rotated}, "client")
	if resp := h.do(t, http.MethodGet, "/v1/shipping-method?page=0", fresh, nil); resp.status != http.StatusOK {
		t.Errorf("a token of the new secret: %d %s", resp.status, resp.body)
	}
}

// serveListening serves the app and waits for its notification connection
// (identity.Revocations), or the checks of a test would read the database
// instead of the cache.
func (h *harness) serveListening(t *testing.T) {
	t.Helper()
	h.serve(t)
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		var listening bool
		err := h.store.Pool.QueryRow(t.Context(), `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE application_name = 'tenure revocations' AND datname = current_database()
			AND query = 'LISTEN offer_standing_changed')`).Scan(&listening)
		if err != nil {
			t.Fatal(err)
		}
		if listening {
			return
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("the server does not listen for credential and offer changes")
		}
	}
}
