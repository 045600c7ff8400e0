package checkouttest

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	checkoutpage "github.com/tenurehq/tenure/web/checkout"
)

// msg is the page's text for key in lang, placeholders filled from
// name/value pairs; tests look for the words the customer reads.
func msg(t *testing.T, lang, key string, pairs ...string) string {
	t.Helper()
	raw, err := fs.ReadFile(checkoutpage.Assets(), "messages/"+lang+".json")
	if err != nil {
		t.Fatal(err)
	}
	catalog := map[string]string{}
	if err := json.Unmarshal(raw, &catalog); err != nil {
		t.Fatal(err)
	}
	text, ok := catalog[key]
	if !ok {
		t.Fatalf("no message %s in %s", key, lang)
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		text = strings.ReplaceAll(text, "{"+pairs[i]+"}", pairs[i+1])
	}
	return text
}

// before is a message's text up to its first placeholder, for texts whose
// filled-in part a test does not know exactly.
func before(t *testing.T, lang, key string) string {
	t.Helper()
	text, _, _ := strings.Cut(msg(t, lang, key), "{")
	return text
}
