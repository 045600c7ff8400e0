package config_test

import (
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
)

// Requests to Temporal go uncompressed unless gzip is asked for; any other
// value is refused by its key.
func TestTemporalCompression(t *testing.T) {
	c := load(t)
	if c.Temporal.Compression != "none" {
		t.Errorf("default compression %q, want none", c.Temporal.Compression)
	}
	c.Temporal.Compression = "gzip"
	if err := c.Validate(config.NeedTemporal); err != nil {
		t.Errorf("gzip refused: %v", err)
	}
	c.Temporal.Compression = "zstd"
	if err := c.Validate(config.NeedTemporal); err == nil || !strings.Contains(err.Error(), "temporal.compression (TENURE_TEMPORAL_COMPRESSION)") || !strings.Contains(err.Error(), `"zstd"`) {
		t.Errorf("zstd: %v", err)
	}
}
