package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/fixtures"
	"github.com/tenurehq/tenure/internal/testing/testenv"
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
	store := testenv.Connect(t, databaseURL, 4)
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
	if err != nil || cred.SellerID != sellerID || !auth.SecretMatches(cred.SecretHash, created.ClientSecret) {
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
		!auth.SecretMatches(cred.SecretHash, rotated.ClientSecret) || auth.SecretMatches(cred.SecretHash, created.ClientSecret) {
		t.Errorf("after rotation only the new secret works: %+v", rotated)
	}
}

// Without a worker on the namespace, creating a sandbox seller gives up
// after --wait, saying where it waited, and still prints the credentials.
func TestSellersCreateGivesUpWhenNoWorkerPolls(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	namespace := testenv.Namespace(t)
	address := testenv.TemporalAddress(t)
	env := append(os.Environ(),
		"TENURE_DATABASE_URL="+databaseURL,
		"TENURE_TEMPORAL_ADDRESS="+address,
		"TENURE_TEMPORAL_NAMESPACE="+namespace,
	)
	started := time.Now()
	out, err := tenureCLIFails(t, env, "sellers", "create", "--name", "Lonely Shop", "--json", "--wait", "3s")
	if err == nil {
		t.Fatalf("the command succeeded:\n%s", out)
	}
	if took := time.Since(started); took > 30*time.Second {
		t.Errorf("the command took %s to give up", took)
	}
	for _, want := range []string{"gave up after 3s", "on Temporal at " + address, `namespace "` + namespace + `"`,
		`task queue "sandbox"`, "no worker polls that task queue", "tenure sellers seed "} {
		if !strings.Contains(out, want) {
			t.Errorf("the message lacks %q:\n%s", want, out)
		}
	}
	var created sellerCredentialsOutput
	first, _, _ := strings.Cut(out, "\n")
	if err := json.Unmarshal([]byte(first), &created); err != nil || created.ClientSecret == "" {
		t.Fatalf("the credentials were not printed first: %v\n%s", err, out)
	}
	if _, err := testenv.Connect(t, databaseURL, 2).GetSeller(t.Context(), uuid.MustParse(created.SellerID)); err != nil {
		t.Errorf("the printed seller does not exist: %v", err)
	}
}

// A worker on another database than the command's (the incident of issue
// 12) breaks a foreign key: the seeding fails at once, and the command
// prints why. `tenure sellers seed` seeds a seller the worker knows.
func TestSellersCreatePrintsWhySeedingFailed(t *testing.T) {
	workerStore := testenv.Database(t)
	namespace := testenv.Namespace(t)
	testenv.Worker(t, testenv.Config(t), workerStore, testenv.ClientFor(t, namespace))
	env := append(os.Environ(),
		"TENURE_DATABASE_URL="+testenv.DatabaseURL(t),
		"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
		"TENURE_TEMPORAL_NAMESPACE="+namespace,
	)
	started := time.Now()
	out, err := tenureCLIFails(t, env, "sellers", "create", "--name", "Elsewhere Shop")
	if err == nil {
		t.Fatalf("the command succeeded:\n%s", out)
	}
	if took := time.Since(started); took > 30*time.Second {
		t.Errorf("the command took %s to fail", took)
	}
	for _, want := range []string{"client secret:", "failed (workflow sandbox-fixtures/",
		"sandbox.SeedShippingMethods failed permanently: a record it refers to does not exist", "tenure sellers seed "} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SQLSTATE") {
		t.Errorf("the reason shows SQL:\n%s", out)
	}

	seller, err := auth.CreateSeller(t.Context(), workerStore, "Known Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	seedEnv := append(env, "TENURE_DATABASE_URL="+workerStore.Pool.Config().ConnString())
	if got := string(tenureCLI(t, seedEnv, "sellers", "seed", seller.Seller.ID.String())); !strings.Contains(got, "are in place") {
		t.Errorf("sellers seed printed %q", got)
	}
	methods, err := workerStore.ListShippingMethods(t.Context(), dbgen.ListShippingMethodsParams{SellerID: seller.Seller.ID, RowLimit: 10})
	if err != nil || len(methods) != 2 {
		t.Errorf("the seeded seller has %d shipping methods (%v)", len(methods), err)
	}
}
