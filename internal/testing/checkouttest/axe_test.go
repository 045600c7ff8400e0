package checkouttest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeDir holds package.json and package-lock.json of axe-core.
const axeDir = "axe"

var (
	axeOnce   sync.Once
	axeSource string
	axeErr    error
)

// loadAxe installs axe-core with npm ci the first time (node_modules is
// not committed) and reads it; without npm the test skips, saying so.
func loadAxe(t *testing.T) string {
	t.Helper()
	script := filepath.Join(axeDir, "node_modules", "axe-core", "axe.min.js")
	if _, err := os.Stat(script); err != nil {
		if _, err := exec.LookPath("npm"); err != nil {
			t.Skip("axe-core is not installed and there is no npm to install it: install Debian's npm package, or run npm ci in internal/testing/checkouttest/axe")
		}
	}
	axeOnce.Do(func() {
		if _, err := os.Stat(script); err != nil {
			out, err := exec.Command("npm", "ci", "--prefix", axeDir, "--no-audit", "--no-fund").CombinedOutput()
			if err != nil {
				axeErr = err
				axeSource = string(out)
				return
			}
		}
		raw, err := os.ReadFile(script)
		axeSource, axeErr = string(raw), err
	})
	if axeErr != nil {
		t.Fatalf("installing axe-core: %v\n%s", axeErr, axeSource)
	}
	return axeSource
}

// axeFinding is one rule axe-core found broken, with the elements.
type axeFinding struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axeRun runs every rule of axe-core on the document and keeps the
// serious and critical findings.
const axeRun = `(async () => {
	const result = await axe.run(document, { resultTypes: ['violations'] });
	return result.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
})()`

// axeFindings are the serious and critical accessibility findings on the
// screen as it is.
func (b *browser) axeFindings() []axeFinding {
	b.T.Helper()
	source := loadAxe(b.T)
	if !eval[bool](b, "typeof axe !== 'undefined'") {
		eval[bool](b, source+";true")
	}
	return eval[[]axeFinding](b, axeRun, chromedp.EvalAwaitPromise)
}

// axe fails the test for every serious or critical accessibility finding
// on the screen as it is.
func (b *browser) axe(screen string) {
	b.T.Helper()
	for _, f := range b.axeFindings() {
		b.T.Errorf("%s: axe-core %s (%s): %s at %s", screen, f.ID, f.Impact, f.Help, strings.Join(f.Nodes, ", "))
	}
}

// TestAxeReportsWhatItShould checks the checker: a page with an unlabelled
// field and an image without text must give findings, or a broken
// injection would let every screen pass.
func TestAxeReportsWhatItShould(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!DOCTYPE html><html lang="en"><title>Broken</title><main><h1>Broken</h1>` +
			`<input type="text"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></html>`))
	}))
	t.Cleanup(server.Close)
	b := newBrowser(t, desktopEnglish)
	b.Open(server.URL)
	found := map[string]bool{}
	for _, f := range b.axeFindings() {
		found[f.ID] = true
	}
	if !found["label"] || !found["image-alt"] {
		t.Errorf("axe-core missed the unlabelled field or the image without text: %v", found)
	}
}
