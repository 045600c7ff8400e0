// Package replay replays the recorded histories of a workflow package
// (testdata/histories/*.json, written by internal/testing/histories) against the
// package's current code, so a change that would break running workflows
// fails the tests.
package replay

import (
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
)

// Histories replays every recorded history in dir with the workflows
// registered, each as a subtest; a nondeterministic change fails it.
func Histories(t *testing.T, dir string, workflows ...any) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no recorded histories in %s", dir)
	}
	replayer := worker.NewWorkflowReplayer()
	for _, wf := range workflows {
		replayer.RegisterWorkflow(wf)
	}
	logger := log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			if err := replayer.ReplayWorkflowHistoryFromJSONFile(logger, file); err != nil {
				t.Fatalf("replaying %s: %v", file, err)
			}
		})
	}
}
