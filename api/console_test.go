package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// consolePolicy is the console's Content-Security-Policy.
const consolePolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// The sign-in page comes in the browser's language (or the switch's),
// never stored, under the console's policy, with nothing inline and
// every file it loads served from the console's versioned assets.
func TestConsoleSignInPage(t *testing.T) {
	h := apitest.New(t)
	for _, c := range []struct{ acceptLanguage, cookie, lang, heading string }{
		{"nl-NL,nl;q=0.9", "", "nl", "Aanmelden"},
		{"nl-NL,nl;q=0.9", "tenure_console_lang=de", "de", "Anmelden"},
		{"", "", "en", "Sign in"},
	} {
		header := map[string]string{"Accept-Language": c.acceptLanguage}
		if c.cookie != "" {
			header["Cookie"] = c.cookie
		}
		r := get(t, h, "/console/sign-in", header)
		body := string(r.Body)
		if r.Status != http.StatusOK || !strings.Contains(body, `<html lang="`+c.lang+`">`) || !strings.Contains(body, "<h1>"+c.heading+"</h1>") {
			t.Errorf("sign-in in %s: %d\n%.300s", c.lang, r.Status, body)
		}
		if r.Header.Get("Cache-Control") != "no-store" || r.Header.Get("Content-Security-Policy") != consolePolicy ||
			r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("sign-in headers %v", r.Header)
		}
		if regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]|\sstyle=|<style`).MatchString(body) {
			t.Errorf("the page has inline script or style:\n%s", body)
		}
		for _, m := range regexp.MustCompile(`(?:href|src)="(/console/assets/[^"]+)"`).FindAllStringSubmatch(body, -1) {
			asset := get(t, h, m[1], nil)
			if asset.Status != http.StatusOK || !strings.Contains(asset.Header.Get("Cache-Control"), "immutable") {
				t.Errorf("%s: %d %v", m[1], asset.Status, asset.Header)
			}
		}
	}
	// A signed-out browser is sent to sign in, and back after.
	if r := get(t, h, "/console/review", nil); r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/console/sign-in?next=%2Fconsole%2Freview" {
		t.Errorf("the queue signed out: %d to %q", r.Status, r.Header.Get("Location"))
	}
}

// Without console.totp_keys the console is not served.
func TestConsoleNeedsItsKeys(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.Console.TOTPKeys = nil })
	if r := get(t, h, "/console/sign-in", nil); r.Status != http.StatusNotFound {
		t.Errorf("sign-in without keys: %d, want 404", r.Status)
	}
}
