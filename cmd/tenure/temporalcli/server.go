package temporalcli

import (
	"context"
	"path/filepath"
)

// ServerModule is the Temporal server's Go module, at the version the
// pinned CLI embeds; its server command and SQL schema tool run a real
// cluster on PostgreSQL (make test-cluster).
const ServerModule = "go.temporal.io/server"

// The server and its schema tool, named as Temporal's own releases name
// them. Each prints "<name> version 1.29.1".
var (
	server = program{name: "temporal-server", pkg: ServerModule + "/cmd/server", version: "v" + ServerVersion,
		reports: "version " + ServerVersion, hint: serverHint}
	sqlTool = program{name: "temporal-sql-tool", pkg: ServerModule + "/cmd/tools/sql", version: "v" + ServerVersion,
		reports: "version " + ServerVersion, hint: serverHint}
)

const serverHint = "place temporal-server and temporal-sql-tool " + ServerVersion + " binaries in the bin directory (.tenure/bin)"

// ServerBinaries are the paths of the pinned server and its schema tool.
type ServerBinaries struct {
	Server, SQLTool string
}

// InstallServer builds the pinned Temporal server and its SQL schema tool
// into binDir with `go install` (from their own module graph, like the
// CLI), unless both are there at the pinned version.
func InstallServer(ctx context.Context, binDir string) (ServerBinaries, error) {
	bins := ServerBinaries{Server: filepath.Join(binDir, server.name), SQLTool: filepath.Join(binDir, sqlTool.name)}
	return bins, install(ctx, binDir, server, sqlTool)
}
