package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/fixtures"
	"github.com/tenurehq/tenure/identity"
	"github.com/tenurehq/tenure/internal/testenv"
)

// tenureCLI runs the built command with the given environment and returns
// its standard output.
func tenureCLI(t *testing.T, env []string, args ...string) []byte {
	t.Helper()
	bin, err := buildTenure()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if exit, ok := err.(*exec.ExitError); ok {
			stderr = exit.Stderr
		}
		t.Fatalf("tenure %v: %v\n%s", args, err, stderr)
	}
	return out
}

// tenureCLIFails runs the built command expecting it to fail, returning
// its combined output.
func tenureCLIFails(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	bin, err := buildTenure()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestSellersCommands(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	pool, err := db.Connect(t.Context(), databaseURL, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	store := db.NewStore(pool)
	namespace := testenv.Namespace(t)
	env := append(os.Environ(),
		"TENURE_DATABASE_URL="+databaseURL,
		"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
		"TENURE_TEMPORAL_NAMESPACE="+namespace,
	)
	// The sandbox fixtures are seeded by a worker polling the same namespace.
	testenv.Worker(t, testenv.Config(t), store, testenv.ClientFor(t, namespace))

	var created sellerCredentialsOutput
	if err := json.Unmarshal(tenureCLI(t, env, "sellers", "create", "--name", "CLI Shop", "--currency", "CHF", "--json"), &created); err != nil {
		t.Fatal(err)
	}
	sellerID := uuid.MustParse(created.SellerID)
	cred, err := store.GetSellerCredential(t.Context(), created.ClientID)
	if err != nil || cred.SellerID != sellerID || !identity.SecretMatches(cred.SecretHash, created.ClientSecret) {
		t.Fatalf("the printed credentials are not the stored ones: %+v %v", cred, err)
	}
	methods, err := store.ListShippingMethods(t.Context(), dbgen.ListShippingMethodsParams{SellerID: sellerID, RowLimit: 10})
	if err != nil || len(methods) != 2 {
		t.Errorf("a sandbox seller gets its fixtures: %+v %v", methods, err)
	}
	for _, m := range methods {
		if m.SellerShippingMethodReference == fixtures.UnsupportedShippingReference && m.Supported {
			t.Error("the unsupported fixture is supported")
		}
	}

	var listed []struct {
		SellerID  string   `json:"seller_id"`
		Name      string   `json:"name"`
		Currency  string   `json:"currency"`
		ClientIDs []string `json:"client_ids"`
	}
	if err := json.Unmarshal(tenureCLI(t, env, "sellers", "list", "--json"), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != 1 || listed[0].SellerID != created.SellerID || listed[0].Currency != "CHF" || listed[0].ClientIDs[0] != created.ClientID {
		t.Errorf("list: %+v", listed)
	}

	var rotated sellerCredentialsOutput
	if err := json.Unmarshal(tenureCLI(t, env, "sellers", "rotate-secret", created.ClientID, "--json"), &rotated); err != nil {
		t.Fatal(err)
	}
	cred, _ = store.GetSellerCredential(t.Context(), created.ClientID)
	if rotated.SellerID != created.SellerID || rotated.ClientID != created.ClientID ||
		!identity.SecretMatches(cred.SecretHash, rotated.ClientSecret) || identity.SecretMatches(cred.SecretHash, created.ClientSecret) {
		t.Errorf("after rotation only the new secret works: %+v", rotated)
	}
}
