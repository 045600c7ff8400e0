package checkout

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func catalogs(t *testing.T) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, lang := range []string{"en", "de", "nl"} {
		raw, err := fs.ReadFile(Assets(), "messages/"+lang+".json")
		if err != nil {
			t.Fatal(err)
		}
		catalog := map[string]string{}
		if err := json.Unmarshal(raw, &catalog); err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		out[lang] = catalog
	}
	return out
}

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

func placeholders(text string) []string {
	var names []string
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// TestCatalogsSayTheSameThings checks that German and Dutch have every
// text English has, no other, and with the same placeholders.
func TestCatalogsSayTheSameThings(t *testing.T) {
	all := catalogs(t)
	for lang, catalog := range all {
		for key, text := range all["en"] {
			other, ok := catalog[key]
			switch {
			case !ok:
				t.Errorf("%s lacks %s", lang, key)
			case strings.TrimSpace(other) == "":
				t.Errorf("%s: %s is empty", lang, key)
			case !slices.Equal(placeholders(other), placeholders(text)):
				t.Errorf("%s: %s has placeholders %v, English %v", lang, key, placeholders(other), placeholders(text))
			}
		}
		for key := range catalog {
			if _, ok := all["en"][key]; !ok {
				t.Errorf("%s has %s, which English lacks", lang, key)
			}
		}
	}
}

// literalKey is a t('key') call with a key written out; keys built at run
// time (step.${step}) are covered by the flows of the browser tests.
var literalKey = regexp.MustCompile(`\bt\('([a-zA-Z_.]+)'`)

// TestModulesUseKnownTexts checks every text key the modules name.
func TestModulesUseKnownTexts(t *testing.T) {
	en := catalogs(t)["en"]
	used := 0
	err := fs.WalkDir(Assets(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(name, ".js") {
			return err
		}
		source, err := fs.ReadFile(Assets(), name)
		if err != nil {
			return err
		}
		for _, m := range literalKey.FindAllStringSubmatch(string(source), -1) {
			used++
			if _, ok := en[m[1]]; !ok {
				t.Errorf("%s uses the unknown text %s", name, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if used < 50 {
		t.Errorf("found only %d text keys in the modules: the pattern no longer matches how they call t", used)
	}
}
