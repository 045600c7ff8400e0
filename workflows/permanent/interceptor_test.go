package permanent_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	temporallog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/permanent"
)

// step is what the test workflow runs: one activity, local or not, with
// a retry policy that would try a failure five times.
type step struct {
	Activity string
	Local    bool
}

func runStep(ctx workflow.Context, s step) error {
	retry := &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, BackoffCoefficient: 1, MaximumAttempts: 5}
	if s.Local {
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second, RetryPolicy: retry})
		return workflow.ExecuteLocalActivity(ctx, s.Activity).Get(ctx, nil)
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second, RetryPolicy: retry})
	return workflow.ExecuteActivity(ctx, s.Activity).Get(ctx, nil)
}

// lines are the lines of out that contain substr.
func lines(out *testenv.Output, substr string) []string {
	var found []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, substr) {
			found = append(found, l)
		}
	}
	return found
}

// stack is a worker with the interceptor, on a fresh namespace and
// database, whose activities count their attempts.
type stack struct {
	client   client.Client
	log      *testenv.Output
	attempts map[string]*atomic.Int32
}

func newStack(t *testing.T, interceptors []interceptor.WorkerInterceptor) *stack {
	t.Helper()
	_, url := connect(t)
	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := &stack{log: &testenv.Output{}, attempts: map[string]*atomic.Int32{}}
	logger := temporallog.NewStructuredLogger(slog.New(slog.NewTextHandler(s.log, &slog.HandlerOptions{Level: slog.LevelWarn})))
	s.client, err = client.Dial(client.Options{HostPort: testenv.TemporalAddress(t), Namespace: testenv.Namespace(t), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.client.Close)
	w := worker.New(s.client, "permanent", worker.Options{Interceptors: interceptors})
	w.RegisterWorkflow(runStep)
	activities := map[string]func(ctx context.Context) error{
		// A foreign-key violation, as when a seller is missing.
		"insert.orphan": func(ctx context.Context) error {
			_, err := pool.Exec(ctx, "INSERT INTO child (parent_id, quantity) VALUES (42, 1)")
			return err
		},
		// Fails twice the way a restarting database does, then passes.
		"insert.after_restart": func(ctx context.Context) error {
			if activity.GetInfo(ctx).Attempt < 3 {
				return errors.New("failed to connect: connection refused")
			}
			_, err := pool.Exec(ctx, "INSERT INTO child (parent_id, quantity) VALUES (1, 1)")
			return err
		},
		// Refuses with its own error type, which callers act on.
		"insert.refused": func(context.Context) error {
			return temporal.NewNonRetryableApplicationError("the reference is in use", "DuplicateReference", nil)
		},
	}
	for name, fn := range activities {
		count := &atomic.Int32{}
		s.attempts[name] = count
		w.RegisterActivityWithOptions(func(ctx context.Context) error {
			count.Add(1)
			return fn(ctx)
		}, activity.RegisterOptions{Name: name})
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return s
}

func (s *stack) run(t *testing.T, st step) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	run, err := s.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "permanent"}, runStep, st)
	if err != nil {
		t.Fatal(err)
	}
	return run.Get(ctx, nil)
}

func TestAForeignKeyViolationFailsAfterOneAttempt(t *testing.T) {
	s := newStack(t, []interceptor.WorkerInterceptor{permanent.Interceptor()})
	for _, local := range []bool{false, true} {
		s.attempts["insert.orphan"].Store(0)
		err := s.run(t, step{Activity: "insert.orphan", Local: local})
		var app *temporal.ApplicationError
		var act *temporal.ActivityError
		if !errors.As(err, &app) || app.Type() != permanent.ErrorType || !app.NonRetryable() {
			t.Fatalf("local %v: the workflow failed with %v, not a permanent failure", local, err)
		}
		if want := "insert.orphan failed permanently: a record it refers to does not exist"; !strings.HasPrefix(app.Message(), want) {
			t.Errorf("local %v: message %q, want it to start with %q", local, app.Message(), want)
		}
		// A local activity's failure reaches the workflow unwrapped.
		if !local && (!errors.As(err, &act) || act.RetryState() != enums.RETRY_STATE_NON_RETRYABLE_FAILURE) {
			t.Errorf("retry state of %v", err)
		}
		if n := s.attempts["insert.orphan"].Load(); n != 1 {
			t.Errorf("local %v: %d attempts, want 1", local, n)
		}
	}
	logged := lines(s.log, "activity failed permanently")
	if len(logged) != 2 {
		t.Fatalf("want one log line per failure, got %q", logged)
	}
	for _, l := range logged {
		for _, want := range []string{"WorkflowID=", "RunID=", "ActivityType=insert.orphan", "Attempt=1", `reason="a record it refers to does not exist`} {
			if !strings.Contains(l, want) {
				t.Errorf("the log line lacks %s: %s", want, l)
			}
		}
	}
}

// Without the interceptor the same failure is tried as often as the
// policy allows: what the first test sees is the interceptor's doing.
func TestWithoutTheInterceptorTheViolationIsRetried(t *testing.T) {
	s := newStack(t, nil)
	if err := s.run(t, step{Activity: "insert.orphan", Local: true}); err == nil {
		t.Fatal("the violation passed")
	}
	if n := s.attempts["insert.orphan"].Load(); n != 5 {
		t.Errorf("%d attempts, want the policy's 5", n)
	}
}

func TestPassingFailuresAreRetriedAndChosenErrorsKept(t *testing.T) {
	s := newStack(t, []interceptor.WorkerInterceptor{permanent.Interceptor()})
	for _, local := range []bool{false, true} {
		s.attempts["insert.after_restart"].Store(0)
		if err := s.run(t, step{Activity: "insert.after_restart", Local: local}); err != nil {
			t.Fatalf("local %v: a passing failure ended the workflow: %v", local, err)
		}
		if n := s.attempts["insert.after_restart"].Load(); n != 3 {
			t.Errorf("local %v: %d attempts, want 3", local, n)
		}
		err := s.run(t, step{Activity: "insert.refused", Local: local})
		var app *temporal.ApplicationError
		if !errors.As(err, &app) || app.Type() != "DuplicateReference" || app.Message() != "the reference is in use" {
			t.Errorf("local %v: the activity's own error became %v", local, err)
		}
	}
	// The SDK does not log failed local attempts; the interceptor does,
	// but not a refusal the activity chose.
	if retried := lines(s.log, "local activity attempt failed"); len(retried) != 2 || !strings.Contains(retried[1], "Attempt=2") {
		t.Errorf("want the two failed local attempts logged, got %d:\n%s", len(retried), strings.Join(retried, "\n"))
	}
}
