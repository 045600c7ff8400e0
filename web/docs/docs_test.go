package docs_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/web/docs"
)

// The vendored renderer is the one package.json pins and package-lock.json
// locks, as make vendor-docs copies it, with its licences beside it.
func TestVendoredRendererIsThePinnedOne(t *testing.T) {
	var manifest struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	readJSON(t, "package.json", &manifest)
	pinned := manifest.Dependencies["swagger-ui-dist"]
	if pinned == "" || strings.ContainsAny(pinned, "^~<>*x ") {
		t.Fatalf("package.json pins swagger-ui-dist at %q, want an exact version", pinned)
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	readJSON(t, "package-lock.json", &lock)
	if locked := lock.Packages["node_modules/swagger-ui-dist"].Version; locked != pinned {
		t.Errorf("package-lock.json locks swagger-ui-dist %q, package.json pins %q: run npm install in web/docs", locked, pinned)
	}
	bundle, err := fs.ReadFile(docs.Assets(), "swagger-ui/swagger-ui-bundle.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(bundle), `PACKAGE_VERSION:"`+pinned+`"`) {
		t.Errorf("the vendored swagger-ui-bundle.js is not version %s: run make vendor-docs", pinned)
	}
	for _, name := range []string{"swagger-ui/LICENSE", "swagger-ui/NOTICE", "swagger-ui/swagger-ui-bundle.js.LICENSE.txt", "swagger-ui/swagger-ui.css"} {
		if _, err := fs.Stat(docs.Assets(), name); err != nil {
			t.Errorf("the vendored renderer lacks %s: run make vendor-docs", name)
		}
	}
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
