package temporalcli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"
)

// DevServerOptions configure a Temporal dev server process.
type DevServerOptions struct {
	// CLI is the path of the temporal binary.
	CLI string
	// IP the frontend and UI bind to.
	IP string
	// Port of the gRPC frontend; UIPort of the Web UI.
	Port, UIPort int
	// DBFile keeps workflow state across restarts.
	DBFile string
	// LogFile receives the server's own output.
	LogFile string
	// Namespace is created at start (default always exists).
	Namespace string
	// SearchAttributes to register, name -> type (Keyword, Text, ...).
	SearchAttributes map[string]string
	// RecordFile, when set, receives the running server's Record, and is
	// removed when the server is stopped.
	RecordFile string
}

// DevServer is a running dev server process.
type DevServer struct {
	cmd        *exec.Cmd
	done       chan error
	recordFile string
}

// Address is the host:port of the dev server's frontend.
func (o DevServerOptions) Address() string { return net.JoinHostPort(o.IP, strconv.Itoa(o.Port)) }

// UIURL is where the dev server's Web UI answers.
func (o DevServerOptions) UIURL() string {
	return "http://" + net.JoinHostPort(o.IP, strconv.Itoa(o.UIPort))
}

// Tuning are the dev server flags Tenure runs it with, for one server on
// one machine with one history shard:
//   - one partition per task queue: with the default four, a task written
//     to a partition no poller waits on stayed there until it was
//     forwarded, which stalled starts and updates for about two seconds
//     under load;
//   - the shard's transfer queue read up to 1,000 times a second instead
//     of 20: every new workflow's first task passes the transfer queue, so
//     each waited up to 50 ms for the next read. Offers created at 50/s
//     took p50 50 ms and p99 90 ms before, 14 ms and 36-51 ms after; raw
//     starts on a queue nobody polls lost 12 %.
//
// The visibility queue keeps the default 20 reads a second: each read
// walks every visibility task still pending, and under sustained load,
// when the SQLite visibility store falls behind, reading it 1,000 times a
// second cost the server 10-15 % of its CPU (decision record 0283).
var Tuning = []string{
	"--dynamic-config-value", "matching.numTaskqueueReadPartitions=1",
	"--dynamic-config-value", "matching.numTaskqueueWritePartitions=1",
	"--dynamic-config-value", "history.transferProcessorMaxPollRPS=1000",
}

// StartDevServer starts the dev server and returns once its frontend
// answers health checks.
func StartDevServer(ctx context.Context, o DevServerOptions) (*DevServer, error) {
	args := []string{"server", "start-dev",
		"--ip", o.IP,
		"--port", strconv.Itoa(o.Port),
		"--ui-port", strconv.Itoa(o.UIPort),
		"--db-filename", o.DBFile,
		"--log-level", "warn",
	}
	args = append(args, Tuning...)
	if o.Namespace != "" && o.Namespace != "default" {
		args = append(args, "--namespace", o.Namespace)
	}
	names := make([]string, 0, len(o.SearchAttributes))
	for name := range o.SearchAttributes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		args = append(args, "--search-attribute", name+"="+o.SearchAttributes[name])
	}
	logFile, err := os.OpenFile(o.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(o.CLI, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = childAttributes()
	s := &DevServer{cmd: cmd, done: make(chan error, 1)}
	if err := s.start(); err != nil {
		return nil, fmt.Errorf("starting the Temporal dev server: %w", err)
	}
	if o.RecordFile != "" {
		// Recorded at once: a starter killed while the server starts
		// leaves a server the next start must recognise.
		s.recordFile = o.RecordFile
		record := Record{PID: cmd.Process.Pid, Address: o.Address(), DBFile: o.DBFile}
		if err := record.write(o.RecordFile); err != nil {
			s.Stop(5 * time.Second)
			return nil, fmt.Errorf("recording the Temporal dev server in %s: %w", o.RecordFile, err)
		}
	}
	if err := s.waitHealthy(ctx, o); err != nil {
		s.Stop(5 * time.Second)
		return nil, err
	}
	return s, nil
}

// start starts the process from a goroutine locked to its OS thread until
// the process ends. The parent-death signal (Linux) fires when the thread
// that started the child ends, not the process, and Go ends threads of its
// own accord (one whose locked goroutine exits, for instance): a thread
// that waits for the child until it exits ends only with it, or with
// Tenure.
func (s *DevServer) start() error {
	started := make(chan error, 1)
	go func() {
		// Never unlocked: the thread ends with this goroutine.
		runtime.LockOSThread()
		if err := s.cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		s.done <- s.cmd.Wait()
	}()
	return <-started
}

func (s *DevServer) waitHealthy(ctx context.Context, o DevServerOptions) error {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	for {
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Errorf("the Temporal dev server exited at start (%v); its log is %s", err, o.LogFile)
		case <-ctx.Done():
			return fmt.Errorf("the Temporal dev server did not become healthy at %s; its log is %s", o.Address(), o.LogFile)
		case <-time.After(200 * time.Millisecond):
		}
		c, err := client.DialContext(ctx, client.Options{HostPort: o.Address(), Namespace: o.Namespace, Logger: quietLogger{}})
		if err != nil {
			continue
		}
		_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
		c.Close()
		if err == nil {
			return nil
		}
	}
}

// Stop asks the server to shut down and kills it if it has not within
// timeout, then removes its record.
func (s *DevServer) Stop(timeout time.Duration) error {
	if s.recordFile != "" {
		defer os.Remove(s.recordFile)
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil // stopped by our signal
		}
		return err
	case <-time.After(timeout):
		_ = s.cmd.Process.Kill()
		return <-s.done
	}
}
