package temporalcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstallServerKeepsPinnedBinaries(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"temporal-server", "temporal-sql-tool"} {
		script := "#!/bin/sh\necho '" + name + " version " + ServerVersion + "'\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", t.TempDir()) // no Go: a build would fail
	bins, err := InstallServer(t.Context(), dir)
	if err != nil || bins.Server != filepath.Join(dir, "temporal-server") || bins.SQLTool != filepath.Join(dir, "temporal-sql-tool") {
		t.Fatalf("got %+v, %v", bins, err)
	}
}

func TestInstallServerExplainsWhenGoIsMissing(t *testing.T) {
	dir := t.TempDir()
	// A server of another version is rebuilt, which needs Go.
	script := "#!/bin/sh\necho 'temporal-server version 1.25.0'\n"
	if err := os.WriteFile(filepath.Join(dir, "temporal-server"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	_, err := InstallServer(t.Context(), dir)
	if err == nil || !strings.Contains(err.Error(), "Go is not on PATH") || !strings.Contains(err.Error(), "temporal-sql-tool "+ServerVersion) {
		t.Fatalf("the error says Go is needed and how to do without, got %v", err)
	}
}
