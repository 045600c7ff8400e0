package workflows_test

import (
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/workflows"
)

// The configured compression becomes the SDK's: without an explicit none,
// the SDK would compress with gzip.
func TestConnectionOptionsCompression(t *testing.T) {
	if _, ok := workflows.ConnectionOptions(config.TemporalConfig{Compression: "none"}).GrpcCompression.(*client.GrpcCompressionNone); !ok {
		t.Error("none does not turn the SDK's gzip off")
	}
	if _, ok := workflows.ConnectionOptions(config.TemporalConfig{Compression: "gzip"}).GrpcCompression.(*client.GrpcCompressionGzip); !ok {
		t.Error("gzip is not the SDK's gzip")
	}
}
