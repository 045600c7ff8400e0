package tenure

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Ids clients send are read by package recordid alone: no other
// hand-written package calls uuid.Parse, which also takes spellings the
// rule refuses (no hyphens, braces, urn:uuid:). Package identity parses
// the subjects of tokens Tenure signed itself.
func TestIDsAreReadByOneRule(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, ".gen.go") ||
			dir == "foundation/recordid" || dir == "domain/auth" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(src, []byte("uuid.Parse(")) {
			t.Errorf("%s reads an id with uuid.Parse: use recordid.Parse", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
