package api_test

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// docsPolicy is the Content-Security-Policy of the API reference and its
// assets.
const docsPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

var (
	// docsReferences are the addresses a reference page names: its
	// assets, the contract and the other pages.
	docsReferences = regexp.MustCompile(`(?:href|src|data-contract)="([^"]*)"`)
	// cssURLs are the files a style sheet loads.
	cssURLs = regexp.MustCompile(`url\(\s*["']?([^"')]*)`)
)

func TestDocsOpensTheSellerAPIReference(t *testing.T) {
	h := apitest.New(t)
	for _, path := range []string{"/docs", "/docs/"} {
		r := get(t, h, path, nil)
		if r.Status != http.StatusFound || r.Header.Get("Location") != "/docs/seller" {
			t.Errorf("%s: %d to %q, want 302 to /docs/seller", path, r.Status, r.Header.Get("Location"))
		}
		checkSecurityHeaders(t, path, r, docsPolicy)
	}
}

func TestDocsRendersEachContractWithLocalFilesOnly(t *testing.T) {
	h := apitest.New(t)
	for _, c := range []struct{ page, contract, title, other string }{
		{"/docs/seller", "/openapi/seller.yaml", "Seller API reference", "/docs/customer"},
		{"/docs/customer", "/openapi/customer.yaml", "Customer-Facing API reference", "/docs/seller"},
	} {
		r := get(t, h, c.page, nil)
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("%s: %d %s", c.page, r.Status, r.Header.Get("Content-Type"))
		}
		if got := r.Header.Get("Cache-Control"); got != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache (the page names the assets' version)", c.page, got)
		}
		checkSecurityHeaders(t, c.page, r, docsPolicy)
		body := string(r.Body)
		for _, want := range []string{
			"<title>" + c.title, `data-contract="` + c.contract + `"`,
			`<a href="` + c.page + `" aria-current="page">`, `<a href="` + c.other + `">`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page lacks %s:\n%s", c.page, want, body)
			}
		}
		if strings.Contains(body, "<script>") || strings.Contains(body, "<style") || strings.Contains(body, " style=") {
			t.Errorf("%s: the page has inline script or style, which the policy forbids:\n%s", c.page, body)
		}
		refs := docsReferences.FindAllStringSubmatch(body, -1)
		if len(refs) < 6 {
			t.Fatalf("%s: the page references %d addresses: %s", c.page, len(refs), body)
		}
		for _, ref := range refs {
			checkLocalFile(t, h, c.page, ref[1])
		}
	}
}

// checkLocalFile wants address, which page references, to be a data: URL
// (the empty icon, so the browser asks for no favicon) or a path of this
// server that answers, and a style sheet to load data: URLs only.
func checkLocalFile(t *testing.T, h *apitest.Harness, page, address string) {
	t.Helper()
	if strings.HasPrefix(address, "data:") {
		return
	}
	if !strings.HasPrefix(address, "/") || strings.HasPrefix(address, "//") {
		t.Errorf("%s references %q, which is not a path of this server", page, address)
		return
	}
	r := get(t, h, address, nil)
	if r.Status != http.StatusOK {
		t.Errorf("%s references %s, which answers %d", page, address, r.Status)
		return
	}
	if !strings.HasPrefix(address, "/docs/assets/") {
		return
	}
	if got := r.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
		t.Errorf("%s: Cache-Control %q", address, got)
	}
	checkSecurityHeaders(t, address, r, docsPolicy)
	if strings.HasSuffix(address, ".css") {
		for _, u := range cssURLs.FindAllStringSubmatch(string(r.Body), -1) {
			if !strings.HasPrefix(u[1], "data:") {
				t.Errorf("%s loads %q: a style sheet of the reference loads data: URLs only", address, u[1])
			}
		}
	}
	zipped := get(t, h, address, map[string]string{"Accept-Encoding": "gzip"})
	if zipped.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, zipped.Body), r.Body) {
		t.Errorf("%s: a browser accepting gzip gets the file compressed: %v", address, zipped.Header)
	}
}

func TestDocsAssetsHaveTheirMediaTypes(t *testing.T) {
	h := apitest.New(t)
	page := get(t, h, "/docs/seller", nil)
	script := regexp.MustCompile(`src="(/docs/assets/[0-9a-f]{16})/docs.js"`).FindStringSubmatch(string(page.Body))
	if script == nil {
		t.Fatalf("the page loads no versioned docs.js: %s", page.Body)
	}
	base := script[1]
	for path, want := range map[string]string{
		base + "/docs.js":                                     "text/javascript; charset=utf-8",
		base + "/swagger-ui/swagger-ui-bundle.js":             "text/javascript; charset=utf-8",
		base + "/swagger-ui/swagger-ui.css":                   "text/css; charset=utf-8",
		base + "/swagger-ui/LICENSE":                          "text/plain; charset=utf-8",
		base + "/swagger-ui/swagger-ui-bundle.js.LICENSE.txt": "text/plain; charset=utf-8",
	} {
		r := get(t, h, path, nil)
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != want {
			t.Errorf("%s: %d %q, want 200 %q", path, r.Status, r.Header.Get("Content-Type"), want)
		}
	}
	if r := get(t, h, base+"/swagger-ui/LICENSE", nil); !strings.Contains(string(r.Body), "Apache License") {
		t.Errorf("the renderer's licence is not served beside it: %.200s", r.Body)
	}
}

func TestDocsRefusesWhatItDoesNotHave(t *testing.T) {
	h := apitest.New(t)
	page := get(t, h, "/docs/seller", nil)
	version := regexp.MustCompile(`/docs/assets/([0-9a-f]{16})/`).FindStringSubmatch(string(page.Body))[1]
	checkNotFoundUnder(t, h, docsPolicy,
		"/docs/merchant",
		"/docs/assets",
		"/docs/assets/0000000000000000/docs.js",
		"/docs/assets/"+version+"/missing.js",
		"/docs/assets/"+version+"/../docs.go",
	)
}
