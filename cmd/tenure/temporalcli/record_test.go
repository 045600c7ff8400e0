//go:build linux

package temporalcli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tenurehq/tenure/cmd/tenure/temporalcli"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func writeRecord(t *testing.T, path string, r temporalcli.Record) {
	t.Helper()
	raw, _ := json.Marshal(r)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A server whose starter died is found through its record and stopped,
// which frees its port for the next start.
func TestStopLeftoverStopsTheRecordedServer(t *testing.T) {
	dir := t.TempDir()
	o := temporalcli.DevServerOptions{
		CLI: testenv.TemporalCLI(t), IP: "127.0.0.1", Port: testenv.FreePort(t), UIPort: testenv.FreePort(t),
		DBFile: filepath.Join(dir, "temporal.db"), LogFile: filepath.Join(dir, "temporal.log"),
		RecordFile: filepath.Join(dir, "temporal-dev.json"),
	}
	server, err := temporalcli.StartDevServer(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Stop(5 * time.Second) })
	record, ok := temporalcli.ReadRecord(o.RecordFile)
	if !ok || record.Address != o.Address() || record.DBFile != o.DBFile || record.PID == 0 {
		t.Fatalf("the running server's record: %+v, %v", record, ok)
	}

	pid, err := temporalcli.StopLeftover(o.RecordFile, 10*time.Second)
	if err != nil || pid != record.PID {
		t.Fatalf("StopLeftover = %d, %v; want %d", pid, err, record.PID)
	}
	ln, err := net.Listen("tcp", o.Address())
	if err != nil {
		t.Fatalf("the port is still taken: %v", err)
	}
	ln.Close()
	if _, err := os.Stat(o.RecordFile); !os.IsNotExist(err) {
		t.Errorf("the record stays: %v", err)
	}
}

// A record is only trusted while its pid runs the recorded server: a pid
// the system gave to another process is never stopped.
func TestStopLeftoverLeavesOtherProcessesAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "temporal-dev.json")
	// A process whose command line looks like a dev server of another
	// database file, and one that looks like nothing of the kind.
	others := []*exec.Cmd{
		exec.Command("sh", "-c", "sleep 30; true", "server", "start-dev", "--db-filename", filepath.Join(dir, "other.db")),
		exec.Command("sleep", "30"),
	}
	for i, cmd := range others {
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ended := make(chan error, 1)
		go func() { ended <- cmd.Wait() }()
		t.Cleanup(func() { _ = cmd.Process.Kill(); <-ended })
		if i == 0 {
			time.Sleep(100 * time.Millisecond)
			if args, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", cmd.Process.Pid)); !bytes.Contains(args, []byte("start-dev")) {
				t.Fatalf("the look-alike's command line is %q", args)
			}
		}
		writeRecord(t, path, temporalcli.Record{PID: cmd.Process.Pid, Address: "127.0.0.1:1", DBFile: filepath.Join(dir, "temporal.db")})
		if _, ok := temporalcli.ReadRecord(path); ok {
			t.Errorf("%v is taken for the recorded server", cmd.Args)
		}
		if pid, err := temporalcli.StopLeftover(path, time.Second); pid != 0 || err != nil {
			t.Errorf("StopLeftover = %d, %v for %v", pid, err, cmd.Args)
		}
		select {
		case <-ended:
			t.Errorf("%v was stopped", cmd.Args)
		case <-time.After(300 * time.Millisecond):
		}
	}
}
