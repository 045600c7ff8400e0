package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/contracts"
)

// load reads the defaults and the environment, no file.
func load(t *testing.T) *config.Config {
	t.Helper()
	empty := filepath.Join(t.TempDir(), "tenure.yaml")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(empty)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The contract settings default to the domain's policy in Berlin, read
// their variables, and every bad value is named by its key.
func TestContractSettings(t *testing.T) {
	c := load(t)
	policy, err := contracts.PolicyOf(c.Contracts)
	if err != nil || policy != contracts.DefaultPolicy() || c.Contracts.Timezone != "Europe/Berlin" {
		t.Errorf("contract defaults: %+v %v", c.Contracts, err)
	}
	if loc, err := c.Contracts.Location(); err != nil || loc.String() != "Europe/Berlin" {
		t.Errorf("location %v %v", loc, err)
	}
	t.Setenv("TENURE_CONTRACTS_RESIDUAL_BASIS_POINTS", "1500")
	t.Setenv("TENURE_CONTRACTS_TIMEZONE", "Europe/Vienna")
	c = load(t)
	if policy, _ := contracts.PolicyOf(c.Contracts); policy.ResidualBasisPoints != 1500 || c.Contracts.Timezone != "Europe/Vienna" {
		t.Errorf("contract settings from the environment: %+v", c.Contracts)
	}
	c.Contracts.Timezone = "Mars/Olympus"
	if err := c.Validate(0); err == nil || !strings.Contains(err.Error(), "contracts.timezone (TENURE_CONTRACTS_TIMEZONE)") {
		t.Errorf("an unknown zone: %v", err)
	}
	c.Contracts.NoticeDays = 0
	c.Contracts.TerminationFeeNet = -1
	_, err = contracts.PolicyOf(c.Contracts)
	for _, key := range []string{"contracts.notice_days (TENURE_CONTRACTS_NOTICE_DAYS)", "contracts.termination_fee_net (TENURE_CONTRACTS_TERMINATION_FEE_NET)"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("want a problem naming %s, got %v", key, err)
		}
	}
}

// The workers' workflow cache is bounded.
func TestWorkflowCacheSize(t *testing.T) {
	c := load(t)
	if c.Temporal.WorkflowCacheSize != 2000 {
		t.Errorf("workflow cache size %d", c.Temporal.WorkflowCacheSize)
	}
	c.Temporal.WorkflowCacheSize = 0
	if err := c.Validate(config.NeedTemporal); err == nil || !strings.Contains(err.Error(), "temporal.workflow_cache_size (TENURE_TEMPORAL_WORKFLOW_CACHE_SIZE)") {
		t.Errorf("a cache of no workflow: %v", err)
	}
}
