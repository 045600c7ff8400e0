package collections_test

import (
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// The run's creditors are the configuration's; what is missing is named
// by its setting when a run needs it.
func TestCreditorsComeFromTheConfiguration(t *testing.T) {
	cfg := testenv.Config(t)
	c, err := collections.CreditorsOf(cfg)("tenure")
	if err != nil || c.ID != "DE98ZZZ09999999999" || c.Account.Name == "" || c.Account.IBAN.IsZero() || c.IBANs == nil {
		t.Errorf("the default entity's creditor: %+v, %v", c, err)
	}
	if _, err := collections.CreditorsOf(cfg)("elsewhere"); err == nil || !strings.Contains(err.Error(), "creditors.elsewhere") {
		t.Errorf("an entity without a creditor: %v", err)
	}
	cfg.Mandates.IBANKeys = nil
	if _, err := collections.CreditorsOf(cfg)("tenure"); err == nil || !strings.Contains(err.Error(), "mandates.iban_keys (TENURE_MANDATES_IBAN_KEYS)") {
		t.Errorf("no key ring: %v", err)
	}
}
