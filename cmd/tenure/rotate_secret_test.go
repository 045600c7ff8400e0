package main

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// TestRotateSecretRevokesTokens rotates a secret with the command while an
// API serves tokens of the old one: the API refuses them once PostgreSQL
// has told it of the rotation, and the new secret works.
func TestRotateSecretRevokesTokens(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	base := testenv.API(t, testenv.Config(t), store, testenv.Temporal(t))
	seller, err := auth.CreateSeller(t.Context(), store, "Rotating Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	old, err := sellerclient.Login(t.Context(), base, seller.Credentials.ClientID, seller.Credentials.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	if status, body, err := old.Do(t.Context(), http.MethodGet, "/v1/shipping-method?page=0", nil, nil); err != nil || status != http.StatusOK {
		t.Fatalf("before the rotation: %d %s %v", status, body, err)
	}

	var rotated sellerCredentialsOutput
	out := tenureCLI(t, append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL), "sellers", "rotate-secret", seller.Credentials.ClientID, "--json")
	if err := json.Unmarshal(out, &rotated); err != nil {
		t.Fatal(err)
	}
	rotatedAt := time.Now()
	for {
		status, body, err := old.Do(t.Context(), http.MethodGet, "/v1/shipping-method?page=0", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if status == http.StatusUnauthorized {
			break
		}
		if status != http.StatusOK || time.Since(rotatedAt) > 10*time.Second {
			t.Fatalf("the old token %s after the command returned: %d %s", time.Since(rotatedAt), status, body)
		}
	}
	t.Logf("the old token was refused %s after the command returned", time.Since(rotatedAt))
	fresh, err := sellerclient.Login(t.Context(), base, rotated.ClientID, rotated.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	if status, body, err := fresh.Do(t.Context(), http.MethodGet, "/v1/shipping-method?page=0", nil, nil); err != nil || status != http.StatusOK {
		t.Errorf("a token of the new secret: %d %s %v", status, body, err)
	}
	if _, err := sellerclient.Login(t.Context(), base, seller.Credentials.ClientID, seller.Credentials.ClientSecret); err == nil {
		t.Error("the old secret still gets a token")
	}
}
