package browsertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chromedp/chromedp"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// axeDir holds package.json and package-lock.json of axe-core, under the
// repository's root.
const axeDir = "internal/testing/browsertest/axe"

var (
	axeOnce   sync.Once
	axeSource string
	axeErr    error
)

// loadAxe installs axe-core with npm ci the first time (node_modules is
// not committed) and reads it; without npm the test skips, saying so.
func (p *Page) loadAxe() string {
	p.T.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		p.T.Fatal(err)
	}
	dir := filepath.Join(root, axeDir)
	script := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
	if _, err := os.Stat(script); err != nil {
		if _, err := exec.LookPath("npm"); err != nil {
			p.T.Skip("axe-core is not installed and there is no npm to install it: install Debian's npm package, or run npm ci in " + axeDir)
		}
	}
	axeOnce.Do(func() {
		if _, err := os.Stat(script); err != nil {
			out, err := exec.Command("npm", "ci", "--prefix", dir, "--no-audit", "--no-fund").CombinedOutput()
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
		p.T.Fatalf("installing axe-core: %v\n%s", axeErr, axeSource)
	}
	return axeSource
}

// AxeFinding is one rule axe-core found broken, with the elements.
type AxeFinding struct {
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

// AxeFindings are the serious and critical accessibility findings on the
// screen as it is.
func (p *Page) AxeFindings() []AxeFinding {
	p.T.Helper()
	source := p.loadAxe()
	if !Eval[bool](p, "typeof axe !== 'undefined'") {
		Eval[bool](p, source+";true")
	}
	return Eval[[]AxeFinding](p, axeRun, chromedp.EvalAwaitPromise)
}

// Axe fails the test for every serious or critical accessibility finding
// on the screen as it is.
func (p *Page) Axe(screen string) {
	p.T.Helper()
	for _, f := range p.AxeFindings() {
		p.T.Errorf("%s: axe-core %s (%s): %s at %s", screen, f.ID, f.Impact, f.Help, strings.Join(f.Nodes, ", "))
	}
}
