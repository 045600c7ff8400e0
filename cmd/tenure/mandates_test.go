package main

import (
	"os"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// `tenure mandates reseal` needs the IBAN keys, naming the setting, and
// reports what it sealed again with the current key.
func TestMandatesReseal(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	testenv.Connect(t, databaseURL, 2)
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL)
	if out, err := tenureCLIFails(t, env, "mandates", "reseal"); err == nil || !strings.Contains(out, "mandates.iban_keys (TENURE_MANDATES_IBAN_KEYS): must list at least one key") {
		t.Errorf("without keys: %v\n%s", err, out)
	}
	out := string(tenureCLI(t, append(env, "TENURE_MANDATES_IBAN_KEYS="+testenv.TestIBANKey), "mandates", "reseal"))
	if !strings.Contains(out, "0 mandates sealed again with key test-1") {
		t.Errorf("reseal printed %q", out)
	}
}
