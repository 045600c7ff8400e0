package offerbench_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// clockTick is the unit of the CPU times in /proc/<pid>/stat (USER_HZ,
// 100 on Linux).
const clockTick = 10 * time.Millisecond

// stackCPU is the CPU time used so far by the processes that create an
// offer: this one (API, worker and the clients that load them), the
// Temporal dev server it started, and PostgreSQL (its processes alive at
// the time; the pool's connections live through a run).
type stackCPU struct{ self, temporal, postgres time.Duration }

// readCPU reads the CPU times of the three: this process's as
// processCPU, the others' from /proc.
func readCPU(b *testing.B) stackCPU {
	c := stackCPU{self: processCPU(b)}
	self := os.Getpid()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(dir))
		if pid == self {
			continue // counted by getrusage, to the nanosecond
		}
		stat, err := os.ReadFile(dir + "/stat")
		if err != nil {
			continue // it ended meanwhile
		}
		// The command name is in parentheses and may hold spaces: the
		// fields counted from 3 follow the last ")".
		end := bytes.LastIndexByte(stat, ')')
		if end < 0 {
			continue
		}
		name := string(stat[bytes.IndexByte(stat, '(')+1 : end])
		fields := strings.Fields(string(stat[end+1:]))
		ppid, _ := strconv.Atoi(fields[1])
		utime, _ := strconv.ParseInt(fields[11], 10, 64)
		stime, _ := strconv.ParseInt(fields[12], 10, 64)
		used := time.Duration(utime+stime) * clockTick
		switch {
		case name == "postgres":
			c.postgres += used
		case ppid == self:
			if args, _ := os.ReadFile(dir + "/cmdline"); bytes.Contains(args, []byte("start-dev")) {
				c.temporal += used
			}
		}
	}
	return c
}

// perOperation says how much CPU each of the three spent per operation
// between two readings.
func (c stackCPU) perOperation(since stackCPU, n int) string {
	per := func(d time.Duration) float64 { return ms(d) / float64(max(n, 1)) }
	self, temporal, postgres := per(c.self-since.self), per(c.temporal-since.temporal), per(c.postgres-since.postgres)
	return fmt.Sprintf("CPU per operation: %.2f ms in all = Temporal server %.2f + this process %.2f + PostgreSQL %.2f",
		self+temporal+postgres, temporal, self, postgres)
}

// processCPU is the CPU time the benchmark process (API, worker, clients)
// has used: on a machine other work shares, the CPU an offer costs moves
// less than the rate, which the other work's load sets.
func processCPU(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
