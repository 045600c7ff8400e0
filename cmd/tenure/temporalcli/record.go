package temporalcli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"
)

// Record is what a running dev server leaves in its data directory: other
// commands find its address there, and a later start recognises the server
// as its own leftover when the process that started it died without
// stopping it.
type Record struct {
	PID     int    `json:"pid"`
	Address string `json:"address"`
	// DBFile identifies the server: the process with PID must be a dev
	// server of this database file, so a reused pid is never taken for it.
	DBFile string `json:"db_file"`
}

// ReadRecord reads the record at path; ok is false when there is none or
// when the process it names no longer runs that dev server.
func ReadRecord(path string) (r Record, ok bool) {
	raw, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(raw, &r) != nil {
		return Record{}, false
	}
	return r, r.running()
}

func (r Record) write(path string) error {
	raw, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(raw, '\n'), 0o600)
}

// running reports whether the recorded process is still the dev server of
// the record: a temporal `server start-dev` of the recorded database file.
func (r Record) running() bool {
	args, err := commandLine(r.PID)
	if err != nil || !slices.Contains(args, "start-dev") {
		return false
	}
	i := slices.Index(args, "--db-filename")
	return i >= 0 && i+1 < len(args) && args[i+1] == r.DBFile
}

// StopLeftover stops the dev server recorded at path when it still runs
// (its starter was killed, or ran out of memory, before it could stop it),
// asking first and killing it after timeout. It returns the pid it stopped,
// 0 when there was none; a process that is not the recorded server is
// never touched.
func StopLeftover(path string, timeout time.Duration) (int, error) {
	r, ok := ReadRecord(path)
	if !ok {
		return 0, nil
	}
	if err := syscall.Kill(r.PID, syscall.SIGTERM); err != nil {
		return 0, nil // it ended meanwhile
	}
	deadline := time.Now().Add(timeout)
	for r.running() {
		if time.Now().After(deadline) {
			_ = syscall.Kill(r.PID, syscall.SIGKILL)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// A killed process may hold its ports until it is gone.
	for end := time.Now().Add(5 * time.Second); processExists(r.PID) && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	if processExists(r.PID) {
		return r.PID, fmt.Errorf("the Temporal dev server a previous run left (pid %d) does not stop", r.PID)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return r.PID, err
	}
	return r.PID, nil
}
