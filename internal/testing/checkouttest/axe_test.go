package checkouttest

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

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
	for _, f := range b.AxeFindings() {
		found[f.ID] = true
	}
	if !found["label"] || !found["image-alt"] {
		t.Errorf("axe-core missed the unlabelled field or the image without text: %v", found)
	}
}
