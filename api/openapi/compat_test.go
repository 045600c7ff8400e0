package openapi_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/contractcheck"
)

// The published Seller API 1.0.0 is the contract existing merchant
// integrations were written against; oasdiff must find no breaking change
// (errors or warnings) from it to Tenure's seller.yaml.
func TestNoBreakingChangeFromThePublishedContract(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	reference := contractcheck.ReferencePath(root)
	if _, err := os.Stat(reference); err != nil {
		t.Skipf("the published contract is not beside the checkout (%s); set TENURE_REFERENCE_CONTRACT to check compatibility", reference)
	}
	cmd := exec.Command("go", "tool", "oasdiff", "breaking", "--fail-on", "WARN", "--format", "text", reference, "api/openapi/seller.yaml")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("oasdiff reports breaking changes (%v):\n%s", err, out)
	}
	t.Logf("oasdiff: %s", out)
}
