//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/cmd/tenure/temporalcli"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// envValue reads a variable of a command environment.
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

func envPort(t *testing.T, env []string, key string) int {
	t.Helper()
	port, err := strconv.Atoi(envValue(env, key))
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return port
}

// processEnded reports whether pid ended: gone, or a zombie nobody
// collected yet.
func processEnded(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

func portFree(address string) bool {
	ln, err := net.Listen("tcp", address)
	if err == nil {
		ln.Close()
	}
	return err == nil
}

// `tenure sellers create` next to `tenure dev`, under the same environment,
// reaches its dev server (not temporal.address's default). `tenure dev`
// killed with SIGKILL takes its Temporal dev server along, and starts again
// on the same data directory and ports; a server an earlier run could not
// take along is recognised by its record and stopped.
func TestDevServerFollowsTenureDev(t *testing.T) {
	dataDir := t.TempDir()
	databaseURL := newDatabaseURL(t)
	// No address given: the dev server's port is not the default's.
	env := append(devEnv(t, dataDir, databaseURL), "TENURE_TEMPORAL_ADDRESS=")
	temporalAddress := "127.0.0.1:" + envValue(env, "TENURE_DEV_TEMPORAL_PORT")
	first := startDev(t, env, dataDir)
	clientID, secret := first.banner(t, "Client id"), first.banner(t, "Client secret")

	var created sellerCredentialsOutput
	if err := json.Unmarshal(tenureCLI(t, env, "sellers", "create", "--name", "Next Door", "--json", "--wait", "1m"), &created); err != nil {
		t.Fatal(err)
	}
	methods, err := testenv.Connect(t, databaseURL, 2).ListShippingMethods(t.Context(), dbgen.ListShippingMethodsParams{SellerID: uuid.MustParse(created.SellerID), RowLimit: 10})
	if err != nil || len(methods) != 2 {
		t.Errorf("the dev server's worker did not seed the new seller: %d methods, %v", len(methods), err)
	}

	recordFile := filepath.Join(dataDir, "temporal-dev.json")
	record, ok := temporalcli.ReadRecord(recordFile)
	if !ok || record.Address != temporalAddress {
		t.Fatalf("the dev server's record: %+v, %v", record, ok)
	}
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.done
	for deadline := time.Now().Add(30 * time.Second); !processEnded(record.PID) || !portFree(temporalAddress); {
		if time.Now().After(deadline) {
			t.Fatalf("30 s after tenure dev was killed, its Temporal dev server (pid %d) still runs", record.PID)
		}
		time.Sleep(100 * time.Millisecond)
	}

	second := startDev(t, env, dataDir)
	accessToken(t, second.banner(t, "API"), clientID, secret)
	second.stop(t, syscall.SIGTERM)

	// A leftover server, as a tenure dev whose parent-death signal did not
	// reach its server leaves it: same database file, ports and record.
	absDataDir, _ := filepath.Abs(dataDir)
	leftover, err := temporalcli.StartDevServer(t.Context(), temporalcli.DevServerOptions{
		CLI: testenv.TemporalCLI(t), IP: "127.0.0.1",
		Port: envPort(t, env, "TENURE_DEV_TEMPORAL_PORT"), UIPort: envPort(t, env, "TENURE_DEV_UI_PORT"),
		DBFile: filepath.Join(absDataDir, "temporal.db"), LogFile: filepath.Join(dataDir, "temporal.log"),
		RecordFile: recordFile,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = leftover.Stop(5 * time.Second) })
	third := startDev(t, env, dataDir)
	if !strings.Contains(third.stderr.String(), "stopped the Temporal dev server an earlier tenure dev left running") {
		t.Errorf("tenure dev did not say it stopped the leftover:\n%s", third.stderr)
	}
	accessToken(t, third.banner(t, "API"), clientID, secret)
	third.stop(t, syscall.SIGTERM)
}
