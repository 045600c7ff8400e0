package workflows

import (
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
)

// ConnectionOptions are the gRPC options of a client of the Temporal
// frontend as cfg asks for them. The SDK compresses every request with
// gzip unless told otherwise, which cost an eighth of the process's CPU
// while creating offers against a server nearby (decision record 0274).
func ConnectionOptions(cfg config.TemporalConfig) client.ConnectionOptions {
	if cfg.Compression == "gzip" {
		return client.ConnectionOptions{GrpcCompression: &client.GrpcCompressionGzip{}}
	}
	return client.ConnectionOptions{GrpcCompression: &client.GrpcCompressionNone{}}
}
