package temporalcli

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
)

// childAttributes put the dev server in its own process group (a Ctrl-C in
// the terminal reaches Tenure, which then stops the server in order, after
// its workers) and have Linux send it SIGTERM when the thread that started
// it ends, which it does when Tenure dies in any way, kill -9 included.
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// commandLine is the arguments of a running process.
func commandLine(pid int) ([]string, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return nil, err
	}
	var args []string
	for _, a := range bytes.Split(bytes.TrimSuffix(raw, []byte{0}), []byte{0}) {
		args = append(args, string(a))
	}
	return args, nil
}

// processExists reports whether pid is a process that has not ended; a
// zombie waiting for its parent to collect it has ended.
func processExists(pid int) bool {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	i := bytes.LastIndexByte(raw, ')')
	return i < 0 || i+2 >= len(raw) || (raw[i+2] != 'Z' && raw[i+2] != 'X')
}
