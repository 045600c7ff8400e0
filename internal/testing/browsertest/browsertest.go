// Package browsertest starts a real headless Chromium (Debian's chromium
// package) for the browser tests of the hosted checkout and of the API
// reference, with the flags this machine's closed network needs, and gives
// each test a folder for its screenshots.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// Window is the size of the browser's window and the language it asks
// pages in.
type Window struct {
	Width, Height  int64
	AcceptLanguage string
}

// chromium is Debian's Chromium; CI installs it (.ci/run), and a machine
// without it skips the browser tests, saying so.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("no chromium on PATH: install Debian's chromium package (apt-get install -y chromium) to run the browser tests")
	return ""
}

// Start launches Chromium headless with a fresh profile and returns the
// context of its one tab, sized and speaking as w (a window narrower than
// 600 px is a phone's). Everything the browser does is bound by timeout,
// and it stops when the test ends. The flags keep it off the network of
// its own accord: no background networking, no component updates, no QUIC.
func Start(t *testing.T, timeout time.Duration, w Window) context.Context {
	t.Helper()
	path := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(int(w.Width), int(w.Height)),
	)
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(cancelTab)
	userAgent, err := chromedp.Run(ctx, chromedp.Evaluate[string]("navigator.userAgent"))
	if err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
		UserAgent: userAgent, AcceptLanguage: w.AcceptLanguage,
	}); err != nil {
		t.Fatal(err)
	}
	var mobile []chromedp.EmulateViewportOption
	if w.Width < 600 {
		mobile = append(mobile, chromedp.EmulateMobile)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.Width, w.Height, mobile...)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// Artifacts is the folder of a test's screenshots: $TENURE_ARTIFACTS, else
// .tenure/test-artifacts in the repository, then group/<test>. It is
// emptied first, so it holds the last run only.
func Artifacts(t *testing.T, group string) string {
	t.Helper()
	root := os.Getenv("TENURE_ARTIFACTS")
	if root == "" {
		repo, err := testenv.RepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		root = filepath.Join(repo, ".tenure", "test-artifacts")
	}
	dir := filepath.Join(root, group, regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(t.Name(), "_"))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}
