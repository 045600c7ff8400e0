package clustertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// process is a child process in a process group of its own, its output in
// a log file. The group lets the harness signal it with anything it
// starts; Pdeathsig kills it if the test binary dies first, as on a test
// timeout, which panics before any cleanup runs.
type process struct {
	name string
	log  string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// start runs bin with args and env, in logDir, until the test ends; on a
// failure the end of its log is printed.
func start(t testing.TB, name, logDir string, env []string, bin string, args ...string) *process {
	t.Helper()
	p := &process{name: name, log: filepath.Join(logDir, name+".log"), done: make(chan struct{})}
	logFile, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close() // the child has its own descriptor
	p.cmd = exec.Command(bin, args...)
	p.cmd.Env, p.cmd.Dir = env, logDir
	p.cmd.Stdout, p.cmd.Stderr = logFile, logFile
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.stop(20 * time.Second)
		if t.Failed() {
			t.Logf("end of the %s log (%s):\n%s", name, p.log, tail(p.log, 30))
		}
	})
	return p
}

// exited reports whether the process has ended.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill ends the process group at once with SIGKILL, as a crash would.
func (p *process) kill() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// stop asks the process group to shut down and kills it after timeout.
func (p *process) stop(timeout time.Duration) {
	if p.exited() {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(timeout):
		p.kill()
	}
}

// tail is the last lines of a file, each cut to 400 bytes: the server
// logs stack traces on one line.
func tail(path string, lines int) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	all := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	for i, line := range all {
		if len(line) > 400 {
			all[i] = line[:400] + " …"
		}
	}
	return strings.Join(all, "\n")
}

// waitUntil polls ready until it succeeds, failing the test when p exits
// first or timeout passes.
func waitUntil(t testing.TB, p *process, timeout time.Duration, ready func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := ready()
		if err == nil {
			return
		}
		if p.exited() {
			t.Fatalf("%s exited (%v) before it was ready: %v\n%s", p.name, p.err, err, tail(p.log, 30))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was not ready within %s: %v\n%s", p.name, timeout, err, tail(p.log, 30))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
