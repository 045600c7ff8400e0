package guard_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func TestRotationRevokesIssuedTokens(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	old := h.Token(t, s, "client")
	if resp := h.Do(t, http.MethodGet, "/v1/shipping-method?page=0", old, nil); resp.Status != http.StatusOK {
		t.Fatalf("before the rotation: %d %s", resp.Status, resp.Body)
	}
	_, rotated, err := auth.RotateSecret(t.Context(), h.Store, s.Credentials.ClientID)
	if err != nil {
		t.Fatal(err)
	}
	resp := h.Do(t, http.MethodGet, "/v1/shipping-method?page=0", old, nil)
	if resp.Status != http.StatusUnauthorized {
		t.Fatalf("a token issued before the rotation: %d %s", resp.Status, resp.Body)
	}
	var msg string
	if err := json.Unmarshal(resp.Body, &msg); err != nil || !strings.Contains(msg, "revoked") {
		t.Errorf("the refusal says the token was revoked: %s", resp.Body)
	}
	grant := url.Values{"grant_type": {"client_credentials"}}
	if resp := h.TokenRequest(t, s.Credentials.ClientID, s.Credentials.ClientSecret, grant); resp.Status != http.StatusUnauthorized {
		t.Errorf("the old secret: %d %s", resp.Status, resp.Body)
	}
	fresh := h.Token(t, auth.NewSeller{Seller: s.Seller, Credentials: rotated}, "client")
	if resp := h.Do(t, http.MethodGet, "/v1/shipping-method?page=0", fresh, nil); resp.Status != http.StatusOK {
		t.Errorf("a token of the new secret: %d %s", resp.Status, resp.Body)
	}
}

// TestRotationRevokesTokensOfAListeningServer starts the API's listener,
// with which it caches generations and learns of rotations from
// PostgreSQL's notifications.
func TestRotationRevokesTokensOfAListeningServer(t *testing.T) {
	h := apitest.New(t)
	serveListening(t, h)
	s := h.Seller(t)
	old := h.Token(t, s, "client")
	for range 3 {
		if resp := h.Do(t, http.MethodGet, "/v1/shipping-method?page=0", old, nil); resp.Status != http.StatusOK {
			t.Fatalf("before the rotation: %d %s", resp.Status, resp.Body)
		}
	}
	_, rotated, err := auth.RotateSecret(t.Context(), h.Store, s.Credentials.ClientID)
	if err != nil {
		t.Fatal(err)
	}
	rotatedAt := time.Now()
	for {
		resp := h.Do(t, http.MethodGet, "/v1/shipping-method?page=0", old, nil)
		if resp.Status == http.StatusUnauthorized {
			break
		}
		if resp.Status != http.StatusOK || time.Since(rotatedAt) > 10*time.Second {
			t.Fatalf("the old token %s after the rotation: %d %s", time.Since(rotatedAt), resp.Status, resp.Body)
		}
	}
	t.Logf("the old token was refused %s after the rotation committed", time.Since(rotatedAt))
	fresh := h.Token(t, auth.NewSeller{Seller: s.Seller, Credentials: rotated}, "client")
	if resp := h.Do(t, http.MethodGet, "/v1/shipping-method?page=0", fresh, nil); resp.Status != http.StatusOK {
		t.Errorf("a token of the new secret: %d %s", resp.Status, resp.Body)
	}
}

// serveListening serves the app and waits for its notification connection
// (identity.Revocations), or the checks of a test would read the database
// instead of the cache.
func serveListening(t *testing.T, h *apitest.Harness) {
	t.Helper()
	h.Serve(t)
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		var listening bool
		err := h.Store.Pool.QueryRow(t.Context(), `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
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
