package temporalcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fakeCLI(t *testing.T, version string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "temporal")
	script := "#!/bin/sh\necho 'temporal version " + version + "'\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFindUsesAnExplicitPinnedCLI(t *testing.T) {
	path := fakeCLI(t, "1.5.1 (Server "+ServerVersion+", UI 2.42.1)")
	got, err := Find(t.Context(), path, t.TempDir())
	if err != nil || got != path {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestFindRefusesAnotherVersion(t *testing.T) {
	_, err := Find(t.Context(), fakeCLI(t, "1.1.0 (Server 1.25.0, UI 2.30.0)"), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "TENURE_DEV_TEMPORAL_CLI") || !strings.Contains(err.Error(), Version) {
		t.Fatalf("the error names the setting and the version needed, got %v", err)
	}
}

func TestFindRefusesAMissingExplicitPath(t *testing.T) {
	_, err := Find(t.Context(), filepath.Join(t.TempDir(), "nope"), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "TENURE_DEV_TEMPORAL_CLI") {
		t.Fatalf("got %v", err)
	}
}

func TestFindUsesTheDataDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "bin", "temporal")
	src := fakeCLI(t, "0.0.0-DEV (Server "+ServerVersion+", UI 2.42.1)")
	raw, _ := os.ReadFile(src)
	if err := os.WriteFile(want, raw, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Find(t.Context(), "", dir)
	if err != nil || got != want {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestInstallExplainsWhenGoIsMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := Install(t.Context(), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "Go is not on PATH") || !strings.Contains(err.Error(), "TENURE_DEV_TEMPORAL_CLI") {
		t.Fatalf("got %v", err)
	}
}
