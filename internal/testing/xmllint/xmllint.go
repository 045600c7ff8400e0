// Package xmllint validates XML documents against their official XSD in
// tests, with Debian's xmllint (package libxml2-utils, which CI installs).
// A test is skipped, saying so, only where xmllint is not installed.
package xmllint

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Validate checks a document against a schema file; a violation fails the
// test with xmllint's report.
func Validate(t testing.TB, schema string, document []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "document.xml")
	if err := os.WriteFile(path, document, 0o600); err != nil {
		t.Fatal(err)
	}
	ValidateFile(t, schema, path)
}

// ValidateFile checks a document file against a schema file. xmllint
// reads it as a stream, so large files need little memory.
func ValidateFile(t testing.TB, schema, path string) {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint is not installed (apt-get install libxml2-utils): the document is not validated against " + filepath.Base(schema))
	}
	out, err := exec.Command(xmllint, "--noout", "--stream", "--schema", schema, path).CombinedOutput()
	if err != nil {
		const most = 4000
		if len(out) > most {
			out = append(out[:most], "…"...)
		}
		t.Errorf("%s is not valid against %s: %v\n%s", filepath.Base(path), filepath.Base(schema), err, out)
	}
}
