package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// buildTenure compiles the command once for the subprocess tests.
var buildTenure = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "tenure-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "tenure")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// devProcess is a `tenure dev` subprocess on free ports and its own data
// directory and database.
type devProcess struct {
	cmd     *exec.Cmd
	env     []string
	dataDir string
	apiURL  string
	stdout  *testenv.Output
	stderr  *testenv.Output
	done    chan error
}

// newDatabaseURL names a database that does not exist yet, so `tenure dev`
// has to create it; it is dropped when the test ends.
func newDatabaseURL(t *testing.T) string {
	t.Helper()
	name := fmt.Sprintf("tenure_dev_e2e_%d_%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() {
		conn, err := pgx.Connect(context.Background(), testenv.AdminURL())
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close(context.Background())
		_, _ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, _ := url.Parse(testenv.AdminURL())
	u.Path = "/" + name
	return u.String()
}

func devEnv(t *testing.T, dataDir, databaseURL string) []string {
	return append(os.Environ(),
		"TENURE_HTTP_ADDR="+fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t)),
		"TENURE_DATA_DIR="+dataDir,
		"TENURE_DATABASE_URL="+databaseURL,
		"TENURE_DEV_TEMPORAL_PORT="+fmt.Sprint(testenv.FreePort(t)),
		"TENURE_DEV_UI_PORT="+fmt.Sprint(testenv.FreePort(t)),
		"TENURE_HTTP_ADMIN_ADDR="+fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t)),
		"TENURE_DEV_TEMPORAL_CLI="+testenv.TemporalCLI(t),
	)
}

func startDev(t *testing.T, env []string, dataDir string) *devProcess {
	t.Helper()
	bin, err := buildTenure()
	if err != nil {
		t.Fatal(err)
	}
	p := &devProcess{env: env, dataDir: dataDir, stdout: &testenv.Output{}, stderr: &testenv.Output{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, "dev")
	p.cmd.Env = env
	p.cmd.Dir = t.TempDir()
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("tenure dev stdout:\n%s\nstderr:\n%s", p.stdout, p.stderr)
		}
	})
	deadline := time.After(3 * time.Minute)
	for !strings.Contains(p.stdout.String(), "Press Ctrl-C to stop.") {
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("tenure dev exited before it was ready: %v", err)
		case <-deadline:
			t.Fatal("tenure dev did not become ready in 3 minutes")
		case <-time.After(100 * time.Millisecond):
		}
	}
	return p
}

// banner reads a labelled value from what `tenure dev` printed.
func (p *devProcess) banner(t *testing.T, label string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^  ` + label + `\s+(\S+)`).FindStringSubmatch(p.stdout.String())
	if m == nil {
		t.Fatalf("no %q in the banner:\n%s", label, p.stdout)
	}
	return m[1]
}

func (p *devProcess) stop(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("tenure dev exited with %v after %v", err, sig)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("tenure dev did not stop within 60 s of %v", sig)
	}
}

func httpJSON(t *testing.T, method, target, token string, body any, out any) int {
	t.Helper()
	var reader io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		reader = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, target, reader)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && json.Unmarshal(raw, out) != nil {
		t.Fatalf("%s %s: %d %s", method, target, resp.StatusCode, raw)
	}
	return resp.StatusCode
}

func accessToken(t *testing.T, apiURL, clientID, secret string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, apiURL+"/oauth2/token",
		strings.NewReader("grant_type=client_credentials&scope=client"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(clientID, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&tok) != nil || tok.AccessToken == "" {
		t.Fatalf("token request answered %d", resp.StatusCode)
	}
	return tok.AccessToken
}

func TestDevRunsTheWholeStack(t *testing.T) {
	dataDir := t.TempDir()
	env := devEnv(t, dataDir, newDatabaseURL(t))
	p := startDev(t, env, dataDir)

	apiURL := p.banner(t, "API")
	clientID, secret := p.banner(t, "Client id"), p.banner(t, "Client secret")
	sellerID := p.banner(t, "Sandbox seller")

	var file sandboxSellerFile
	raw, err := os.ReadFile(filepath.Join(dataDir, "sandbox-seller.json"))
	if err != nil || json.Unmarshal(raw, &file) != nil {
		t.Fatalf("sandbox-seller.json: %v %s", err, raw)
	}
	if file.ClientID != clientID || file.ClientSecret != secret || file.SellerID != sellerID || file.APIURL != apiURL {
		t.Errorf("the seller file disagrees with the banner: %+v", file)
	}
	ui, err := http.Get(file.TemporalUIURL)
	if err != nil || ui.StatusCode != http.StatusOK {
		t.Errorf("the Temporal UI at %s does not answer: %v", file.TemporalUIURL, err)
	} else {
		ui.Body.Close()
	}
	reference := p.banner(t, "API reference")
	docs, err := http.Get(reference)
	if err != nil || docs.StatusCode != http.StatusOK {
		t.Errorf("the API reference at %s does not answer: %v", reference, err)
	} else {
		docs.Body.Close()
	}

	// The console is served with the key tenure dev generated, and sends
	// a signed-out browser to its sign-in page.
	consoleURL := p.banner(t, "Console")
	if page, err := http.Get(consoleURL); err != nil || page.StatusCode != http.StatusOK || page.Request.URL.Path != "/console/sign-in" {
		t.Errorf("the console at %s does not answer with its sign-in page: %v", consoleURL, err)
	} else {
		page.Body.Close()
	}

	// It prints one-time sign-in links for the sandbox operator and the
	// sandbox seller's admin, each opening its invitation page.
	links := regexp.MustCompile(`(?m)^\s+(http://\S+/console/invitation/\S+)$`).FindAllStringSubmatch(p.stdout.String(), -1)
	if len(links) != 2 {
		t.Errorf("the banner has %d sign-in links, want 2:\n%s", len(links), p.stdout)
	}
	for _, l := range links {
		if page, err := http.Get(l[1]); err != nil || page.StatusCode != http.StatusOK {
			t.Errorf("the sign-in link %s does not open its invitation: %v", l[1], err)
		} else {
			page.Body.Close()
		}
	}

	runDocWalkthroughs(t, apiURL, filepath.Join(dataDir, "sandbox-seller.json"))

	token := accessToken(t, apiURL, clientID, secret)
	runWebhookSnippet(t, apiURL, token)
	status := httpJSON(t, http.MethodPost, apiURL+"/v1/shipping-method/method", token,
		map[string]any{"seller_shipping_method_reference": "e2e-courier", "name": "E2E Courier"}, nil)
	if status != http.StatusCreated {
		t.Fatalf("create shipping method: %d", status)
	}
	var page struct {
		Data []struct {
			Reference string `json:"seller_shipping_method_reference"`
			Supported bool   `json:"supported"`
		} `json:"data"`
	}
	if status := httpJSON(t, http.MethodGet, apiURL+"/v1/shipping-method", token, nil, &page); status != http.StatusOK {
		t.Fatalf("list shipping methods: %d", status)
	}
	refs := map[string]bool{}
	for _, m := range page.Data {
		refs[m.Reference] = m.Supported
	}
	if !refs["e2e-courier"] || !refs["ups-standard"] || len(page.Data) != 4 {
		t.Errorf("the list holds the two sandbox fixtures and the two new methods: %+v", page.Data)
	}
	checkAdminListener(t, p.banner(t, "Metrics"))
	p.stop(t, syscall.SIGTERM)
	if _, err := net.Dial("tcp", strings.TrimPrefix(apiURL, "http://")); err == nil {
		t.Error("the API still listens after SIGTERM")
	}

	// A second run on the same data directory keeps the seller.
	again := startDev(t, env, dataDir)
	if got := again.banner(t, "Client id"); got != clientID {
		t.Errorf("a restart registers a new seller (%s, was %s)", got, clientID)
	}
	accessToken(t, again.banner(t, "API"), clientID, secret)
	again.stop(t, syscall.SIGINT)
}

// runDocWalkthroughs runs the documented curl walk-throughs as written, with
// only the API address and the seller file pointed at this test's instance:
// the README's, from a token to a completed order, the Customer-Facing API
// guide's checkout, then the catalog guide's CSV import.
func runDocWalkthroughs(t *testing.T, apiURL, sellerFile string) {
	t.Helper()
	login := strings.Replace(docSnippet(t, "README.md", "API=http://127.0.0.1:8080\nSELLER=.tenure/sandbox-seller.json\n"),
		"API=http://127.0.0.1:8080\nSELLER=.tenure/sandbox-seller.json", "API="+apiURL+"\nSELLER="+sellerFile, 1)
	out := runBash(t, login)
	if strings.Count(out, `"seller_shipping_method_reference":"ups-standard"`) != 2 ||
		!strings.Contains(out, `"seller_shipping_method_reference":"unsupported-shipping-reference"`) {
		t.Errorf("the README walk-through did not create and list the method:\n%s", out)
	}

	// The offers walk-through continues from the token of the first one.
	offers := docSnippet(t, "README.md", "# Offers walk-through")
	out = runBash(t, login+"\n"+offers)
	for _, want := range []string{"mark_offer_for_review 200", "mark_offer_accepted 200", "acknowledged", "confirmed", `"status": "completed"`, `"status": "shipped"`, "https://tracking.example/42"} {
		if !strings.Contains(out, want) {
			t.Errorf("the offers walk-through printed no %q:\n%s", want, out)
		}
	}

	// The customer's walk-through checks out an offer the offers
	// walk-through's first command creates, stopping before its simulations.
	create, _, ok := strings.Cut(offers, "\n# Sandbox:")
	if !ok {
		t.Fatal("the offers walk-through has no sandbox step to stop before")
	}
	out = runBash(t, login+"\n"+create+"\n"+docSnippet(t, "docs/customer-api.md", "# The customer's link"))
	for _, want := range []string{`"status": "pending_review"`, `"code": "WELCOME-10"`, `"contract_type": "rent"`, `"duration": 24`, "topi_replace"} {
		if !strings.Contains(out, want) {
			t.Errorf("the customer's walk-through printed no %q:\n%s", want, out)
		}
	}

	// The CSV walk-through uploads the repository's example file.
	out = runBash(t, login+"\ncd ../..\n"+docSnippet(t, "docs/catalog-and-imports.md", "# CSV walk-through"))
	for _, want := range []string{"upload 200", `"status": "completed"`, `"failed": 2`, `"succeeded": 10`, "line,reference,column,reason", "UBI-UDMPRO"} {
		if !strings.Contains(out, want) {
			t.Errorf("the CSV walk-through printed no %q:\n%s", want, out)
		}
	}
}

// docSnippet is the fenced sh block of a Markdown file of the repository
// (path from its root) that begins with start.
func docSnippet(t *testing.T, path, start string) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```sh\n(" + regexp.QuoteMeta(start) + ".*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatalf("%s has no sh block starting with %q", path, start)
	}
	return string(m[1])
}

func runBash(t *testing.T, script string) string {
	t.Helper()
	out, err := exec.Command("bash", "-euo", "pipefail", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("a documented walk-through fails: %v\n%s", err, out)
	}
	return string(out)
}

func runWebhookSnippet(t *testing.T, apiURL, token string) {
	t.Helper()
	walk := docSnippet(t, "docs/webhooks.md", "# Register an endpoint")
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	script := "API=" + apiURL + "\nTOKEN=" + token + "\n" + strings.Replace(walk, "http://127.0.0.1:4000/webhooks", rcv.URL, 1)
	out, err := exec.Command("bash", "-euo", "pipefail", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("the webhooks guide's walk-through fails: %v\n%s", err, out)
	}
	var endpoint struct {
		ID     string `json:"id"`
		Secret string `json:"secret"`
	}
	first, rest, _ := strings.Cut(string(out), "\n")
	if err := json.Unmarshal([]byte(first), &endpoint); err != nil || endpoint.Secret == "" {
		t.Fatalf("the walk-through did not print the endpoint: %v\n%s", err, out)
	}
	if !strings.Contains(rest, `"type":"ping"`) {
		t.Errorf("the walk-through did not show the ping event:\n%s", out)
	}
	rcv.WaitDelivered(t, 1, time.Minute)
	got := rcv.Requests()[0]
	wh, _ := standardwebhooks.NewWebhook(endpoint.Secret)
	if err := wh.Verify(got.Body, got.Header); err != nil {
		t.Errorf("the ping does not verify with the printed secret: %v", err)
	}
}

func TestDevExplainsUnreachablePostgres(t *testing.T) {
	dataDir := t.TempDir()
	env := devEnv(t, dataDir, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/tenure?sslmode=disable&connect_timeout=2", testenv.FreePort(t)))
	out := runDevToFailure(t, env)
	if !strings.Contains(out, "TENURE_DATABASE_URL") || !strings.Contains(out, "cannot reach PostgreSQL") {
		t.Errorf("the error does not say what to set:\n%s", out)
	}
}

func TestDevExplainsATakenPort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dataDir := t.TempDir()
	env := append(devEnv(t, dataDir, newDatabaseURL(t)), fmt.Sprintf("TENURE_DEV_UI_PORT=%d", busy.Addr().(*net.TCPAddr).Port))
	out := runDevToFailure(t, env)
	if !strings.Contains(out, "already in use") || !strings.Contains(out, "TENURE_DEV_UI_PORT") {
		t.Errorf("the error does not name the setting:\n%s", out)
	}
}

func runDevToFailure(t *testing.T, env []string) string {
	t.Helper()
	bin, err := buildTenure()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "dev")
	cmd.Env = env
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("tenure dev succeeded:\n%s", out)
	}
	return string(out)
}

// checkAdminListener checks that the admin listener the banner names serves
// the process's metrics, with the requests just made counted by operation,
// and that it is ready.
func checkAdminListener(t *testing.T, metricsURL string) {
	t.Helper()
	resp, err := http.Get(metricsURL)
	if err != nil {
		t.Fatalf("GET %s: %v", metricsURL, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`tenure_http_requests_total{method="GET",operation="listShippingMethods",status_class="2xx"}`, "temporal_request_total", "tenure_db_pool_max_connections 20"} {
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %d, no %s in:\n%.2000s", metricsURL, resp.StatusCode, want, body)
		}
	}
	ready, err := http.Get(strings.TrimSuffix(metricsURL, "/metrics") + "/readyz")
	if err != nil || ready.StatusCode != http.StatusOK {
		t.Errorf("the admin listener is not ready: %v", err)
	} else {
		ready.Body.Close()
	}
}
