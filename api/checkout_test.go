package api_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	checkoutpage "github.com/tenurehq/tenure/web/checkout"
)

// checkoutPolicy is the Content-Security-Policy of the page and its assets
// when no origin may frame the checkout.
const checkoutPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// assetPaths are the versioned asset paths a shell references.
var assetPaths = regexp.MustCompile(`(?:href|src)="(/checkout/assets/[^"]+)"`)

func get(t *testing.T, h *apitest.Harness, target string, header map[string]string) apitest.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return h.Send(t, req)
}

func checkSecurityHeaders(t *testing.T, what string, r apitest.Response, policy string) {
	t.Helper()
	for name, want := range map[string]string{
		"Content-Security-Policy": policy,
		"Referrer-Policy":         "no-referrer",
		"X-Content-Type-Options":  "nosniff",
	} {
		if got := r.Header.Get(name); got != want {
			t.Errorf("%s: %s is %q, want %q", what, name, got, want)
		}
	}
}

func TestCheckoutPageIsTheShellInTheBrowsersLanguage(t *testing.T) {
	h := apitest.New(t)
	page := "/checkout/offers/" + uuid.NewString() + "?token=anything"
	for _, c := range []struct{ acceptLanguage, lang, title string }{
		{"de-DE,de;q=0.9,en;q=0.8", "de", "Ihr Angebot wird geladen"},
		{"nl-BE,nl;q=0.9", "nl", "Uw aanbieding wordt geladen"},
		{"fr-FR,fr;q=0.9", "en", "Loading your offer"},
	} {
		r := get(t, h, page, map[string]string{"Accept-Language": c.acceptLanguage})
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("%s: %d %s", c.acceptLanguage, r.Status, r.Header.Get("Content-Type"))
		}
		body := string(r.Body)
		if !strings.Contains(body, `<html lang="`+c.lang+`">`) || !strings.Contains(body, c.title) {
			t.Errorf("%s: want lang %s and %q in\n%s", c.acceptLanguage, c.lang, c.title, body)
		}
		if strings.Contains(body, "<script>") || strings.Contains(body, "<style") || strings.Contains(body, " style=") {
			t.Errorf("the shell has inline script or style, which the policy forbids:\n%s", body)
		}
		if got := r.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("the page's address carries the shared token; Cache-Control %q, want no-store", got)
		}
		checkSecurityHeaders(t, "page", r, checkoutPolicy)
	}

	r := get(t, h, "/checkout/offers/not-an-offer", nil)
	if r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), `type="module"`) {
		t.Errorf("an id that is no offer's gets the shell with 404 (the page explains the link): %d %s", r.Status, r.Body)
	}
	checkSecurityHeaders(t, "page of a wrong id", r, checkoutPolicy)
	if got := r.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("the page of a wrong id: Cache-Control %q, want no-store", got)
	}
}

func TestCheckoutAssetsAreVersionedCachedAndCompressed(t *testing.T) {
	h := apitest.New(t)
	shell := get(t, h, "/checkout/offers/"+uuid.NewString(), nil)
	refs := assetPaths.FindAllStringSubmatch(string(shell.Body), -1)
	if len(refs) < 3 {
		t.Fatalf("the shell references %d assets: %s", len(refs), shell.Body)
	}
	mediaTypes := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
	var version string
	for _, ref := range refs {
		path := ref[1]
		parts := strings.SplitN(strings.TrimPrefix(path, "/checkout/assets/"), "/", 2)
		if version == "" {
			version = parts[0]
		}
		if parts[0] != version || len(version) != 16 {
			t.Errorf("%s: every asset is under one 16-character version, got %q and %q", path, version, parts[0])
		}
		plain := get(t, h, path, nil)
		if plain.Status != http.StatusOK || plain.Header.Get("Content-Encoding") != "" {
			t.Fatalf("%s: %d, encoding %q", path, plain.Status, plain.Header.Get("Content-Encoding"))
		}
		ext := path[strings.LastIndex(path, "."):]
		if got := plain.Header.Get("Content-Type"); got != mediaTypes[ext] {
			t.Errorf("%s: Content-Type %q, want %q", path, got, mediaTypes[ext])
		}
		if got := plain.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", path, got)
		}
		checkSecurityHeaders(t, path, plain, checkoutPolicy)
		zipped := get(t, h, path, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
		if zipped.Header.Get("Content-Encoding") != "gzip" || zipped.Header.Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%s: a browser accepting gzip gets it: %v", path, zipped.Header)
		}
		if got := gunzip(t, zipped.Body); !bytes.Equal(got, plain.Body) {
			t.Errorf("%s: the gzip form is not the file", path)
		}
	}

	checkNotFoundUnder(t, h, checkoutPolicy,
		"/checkout/assets/0000000000000000/app.js",
		"/checkout/assets/"+version+"/missing.js",
		"/checkout/assets/"+version+"/../checkout.go",
	)
}

// checkNotFoundUnder requires each path to answer 404 with the API's error
// body and the security headers of the page it would belong to: another
// release's asset, a missing one, one outside the folder.
func checkNotFoundUnder(t *testing.T, h *apitest.Harness, policy string, paths ...string) {
	t.Helper()
	for _, path := range paths {
		r := get(t, h, path, nil)
		if r.Status != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, r.Status)
		}
		r.APIError(t)
		checkSecurityHeaders(t, path, r, policy)
	}
}

func TestCheckoutFrameAncestorsComeFromTheConfiguration(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) {
		c.Checkout.FrameAncestors = []string{"https://shop.example", "http://127.0.0.1:3000"}
	})
	r := get(t, h, "/checkout/offers/"+uuid.NewString(), nil)
	want := strings.Replace(checkoutPolicy, "frame-ancestors 'none'", "frame-ancestors https://shop.example http://127.0.0.1:3000", 1)
	checkSecurityHeaders(t, "page", r, want)
}

// TestCheckoutFirstLoadIsLight sums the compressed size of the shell and
// of every asset the page can load (more than any one visit loads: one
// message catalog of three, and the steps a customer may never reach),
// which the issue bounds at 150 KB.
func TestCheckoutFirstLoadIsLight(t *testing.T) {
	h := apitest.New(t)
	shell := get(t, h, "/checkout/offers/"+uuid.NewString(), map[string]string{"Accept-Encoding": "gzip"})
	total := len(compress(t, shell.Body))
	version := strings.SplitN(strings.TrimPrefix(assetPaths.FindStringSubmatch(string(shell.Body))[1], "/checkout/assets/"), "/", 2)[0]
	files := 0
	for _, name := range checkoutAssetNames(t) {
		r := get(t, h, "/checkout/assets/"+version+"/"+name, map[string]string{"Accept-Encoding": "gzip"})
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d", name, r.Status)
		}
		total += len(r.Body)
		files++
	}
	t.Logf("shell and %d assets: %d bytes compressed (%.1f KB)", files, total, float64(total)/1024)
	if total > 150*1024 {
		t.Errorf("the page's files weigh %d bytes compressed, more than 150 KB", total)
	}
}

func gunzip(t *testing.T, body []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func compress(t *testing.T, body []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(body); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func checkoutAssetNames(t *testing.T) []string {
	t.Helper()
	var names []string
	err := fs.WalkDir(checkoutpage.Assets(), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}
