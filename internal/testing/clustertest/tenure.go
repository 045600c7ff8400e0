package clustertest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// deployment is Tenure split into processes as an operator runs it: the
// binary built from the checkout and the settings every process shares.
type deployment struct {
	bin string
	env []string
	// dir holds the processes' logs and shared data directory.
	dir string
}

// newDeployment builds bin/tenure of the checkout into dir and sets up the
// environment of a sandbox deployment on a database and a Temporal
// namespace: the same signing keys for every process, and one blob store
// for the CSV files, which the API writes and the workers read.
func newDeployment(t testing.TB, dir, databaseURL, temporalAddress, namespace string) *deployment {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	d := &deployment{bin: filepath.Join(dir, "tenure"), dir: dir}
	build := exec.CommandContext(t.Context(), "go", "build", "-o", d.bin, "./cmd/tenure")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/tenure: %v\n%s", err, out)
	}
	blobs := url.URL{Scheme: "file", Path: filepath.Join(dir, "blobs"), RawQuery: "create_dir=true"}
	// Settings from the caller's shell would make the run depend on it.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TENURE_") {
			d.env = append(d.env, kv)
		}
	}
	d.env = append(d.env,
		"TENURE_ENVIRONMENT=sandbox",
		"TENURE_DATA_DIR="+filepath.Join(dir, "data"),
		"TENURE_DATABASE_URL="+databaseURL,
		// Five processes of 6 connections and the server's 40 stay within
		// PostgreSQL's default max_connections of 100.
		"TENURE_DATABASE_MAX_CONNS=6",
		"TENURE_TEMPORAL_ADDRESS="+temporalAddress,
		"TENURE_TEMPORAL_NAMESPACE="+namespace,
		"TENURE_AUTH_SIGNING_KEY="+secret(t),
		"TENURE_LINKS_SIGNING_KEY="+secret(t),
		"TENURE_WEBHOOKS_SECRET_KEY="+secret(t),
		"TENURE_MANDATES_IBAN_KEYS="+testenv.TestIBANKey,
		"TENURE_CATALOG_IMPORTS_BLOB_URL="+blobs.String(),
		"TENURE_CATALOG_IMPORTS_CHUNK_ROWS=1000",
		// The customers of the lifecycles' offers (11,900.00 gross) check
		// out without identity verification, which the client does not do.
		"TENURE_IDV_AMOUNT_THRESHOLD=100000000",
		// Retries within seconds, so a delivery a killed worker dropped is
		// repeated while the test waits.
		"TENURE_WEBHOOKS_RETRY_SCHEDULE=0s,500ms,1s,2s,4s,8s,8s",
		"TENURE_WEBHOOKS_RELAY_INTERVAL=200ms",
		"TENURE_WEBHOOKS_RELAY_GRACE=1s",
		"TENURE_LOG_LEVEL=info",
		"TENURE_LOG_FORMAT=json",
	)
	return d
}

// secret is a random signing key.
func secret(t testing.TB) string {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(key)
}

// run runs a one-shot command (migrate, sellers) and returns its output.
func (d *deployment) run(t testing.TB, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), d.bin, args...)
	cmd.Env, cmd.Dir = d.env, d.dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tenure %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// runJSON runs a command with --json and decodes what it prints.
func (d *deployment) runJSON(t testing.TB, out any, args ...string) {
	t.Helper()
	if err := json.Unmarshal(d.run(t, append(args, "--json")...), out); err != nil {
		t.Fatalf("tenure %s printed no JSON: %v", strings.Join(args, " "), err)
	}
}

// serve starts `tenure serve` on a free port and returns its base URL once
// it is ready (GET /readyz answers 200: PostgreSQL and Temporal reached).
func (d *deployment) serve(t testing.TB, name string) string {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freePorts(t, 1)[0])
	p := start(t, name, d.dir, append(d.env, "TENURE_HTTP_ADDR="+addr), d.bin, "serve")
	base := "http://" + addr
	waitUntil(t, p, time.Minute, func() error {
		resp, err := http.Get(base + "/readyz")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /readyz answered %d", resp.StatusCode)
		}
		return nil
	})
	return base
}

// workers starts a `tenure worker` per name at once, as a scaled
// deployment does, and returns them once they all poll.
func (d *deployment) workers(t testing.TB, names ...string) []*process {
	t.Helper()
	started := make([]*process, len(names))
	for i, name := range names {
		started[i] = start(t, name, d.dir, d.env, d.bin, "worker")
	}
	for _, p := range started {
		waitUntil(t, p, time.Minute, func() error {
			if raw, _ := os.ReadFile(p.log); !strings.Contains(string(raw), `"msg":"worker polling"`) {
				return fmt.Errorf("no %q in its log yet", "worker polling")
			}
			return nil
		})
	}
	return started
}
