//go:build !linux

package temporalcli

import (
	"errors"
	"syscall"
)

// childAttributes put the dev server in its own process group, so a Ctrl-C
// in the terminal reaches Tenure, which then stops the server in order.
// Only Linux can tie the server's life to Tenure's.
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// commandLine is not read outside Linux: a leftover server is then never
// recognised, so never stopped, and other commands do not find its address.
func commandLine(int) ([]string, error) {
	return nil, errors.New("process command lines are read on Linux only")
}

// processExists asks the system whether pid exists.
func processExists(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
