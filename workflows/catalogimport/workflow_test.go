package catalogimport

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/csvimport"
)

// fakeJob records what the workflow asks of the activities.
type fakeJob struct {
	statuses []activities.CSVStatusChange
	expiries []activities.CSVUploadExpiry
	expire   []csvimport.UploadState
	process  func(ctx context.Context) error
	report   func()
	reports  int
	// indexed holds, for each run of the search indexing, how many
	// statuses were recorded before it.
	indexed []int
	env     *testsuite.TestWorkflowEnvironment
}

func (f *fakeJob) register(env *testsuite.TestWorkflowEnvironment) {
	Register(env, a)
	env.OnActivity(a.SetCSVImportStatus, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.CSVStatusChange) (csvimport.Job, error) {
		f.statuses = append(f.statuses, in)
		return csvimport.Job{Status: in.Status}, nil
	})
	env.OnActivity(a.ExpireCSVUpload, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.CSVUploadExpiry) (csvimport.UploadState, error) {
		f.expiries = append(f.expiries, in)
		state := f.expire[0]
		f.expire = f.expire[1:]
		return state, nil
	})
	env.OnActivity(a.ProcessCSVImport, mock.Anything, mock.Anything).Return(func(ctx context.Context, _ uuid.UUID) error {
		if f.process == nil {
			return nil
		}
		return f.process(ctx)
	})
	env.OnActivity(a.WriteCSVImportErrors, mock.Anything, mock.Anything).Return(func(context.Context, uuid.UUID) error {
		f.reports++
		if f.report != nil {
			f.report()
		}
		return nil
	})
	env.OnActivity(a.IndexCSVImportSearch, mock.Anything, mock.Anything).Return(func(context.Context, uuid.UUID) error {
		f.indexed = append(f.indexed, len(f.statuses))
		return nil
	})
}

func (f *fakeJob) recorded() []csvimport.Status {
	var out []csvimport.Status
	for _, s := range f.statuses {
		out = append(out, s.Status)
	}
	return out
}

func run(t *testing.T, f *fakeJob, setup func(env *testsuite.TestWorkflowEnvironment)) Result {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	f.env = env
	f.register(env)
	setup(env)
	env.ExecuteWorkflow(ImportCSV, Input{ImportID: uuid.New(), UploadDeadline: env.Now().Add(time.Hour)})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var result Result
	if err := env.GetWorkflowResult(&result); err != nil {
		t.Fatal(err)
	}
	return result
}

func TestAnUploadedFileIsProcessedAndReported(t *testing.T) {
	f := &fakeJob{}
	result := run(t, f, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(UploadedSignal, nil) }, 10*time.Minute)
	})
	got := f.recorded()
	if result.Status != csvimport.Completed || len(got) != 3 || got[0] != csvimport.Queued || got[1] != csvimport.Ingested || got[2] != csvimport.Completed {
		t.Errorf("result %v, statuses %v", result.Status, got)
	}
	if f.reports != 1 || len(f.expiries) != 0 {
		t.Errorf("reports %d, expiries %v", f.reports, f.expiries)
	}
	if len(f.indexed) != 1 || f.indexed[0] != len(got) {
		t.Errorf("search indexing after statuses %v, want once after all %d", f.indexed, len(got))
	}
}

func TestAnUploadThatNeverComesFailsTheJob(t *testing.T) {
	f := &fakeJob{expire: []csvimport.UploadState{csvimport.UploadExpired}}
	result := run(t, f, func(*testsuite.TestWorkflowEnvironment) {})
	if result.Status != csvimport.Failed || len(f.expiries) != 1 || f.expiries[0].Force || len(f.statuses) != 0 {
		t.Errorf("result %v, expiries %v, statuses %v", result.Status, f.expiries, f.statuses)
	}
}

func TestAnUploadUnderWayAtExpiryGetsItsGrace(t *testing.T) {
	f := &fakeJob{expire: []csvimport.UploadState{csvimport.UploadUnderway}}
	result := run(t, f, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(UploadedSignal, nil) }, time.Hour+10*time.Minute)
	})
	if result.Status != csvimport.Completed || len(f.expiries) != 1 {
		t.Errorf("result %v, expiries %v", result.Status, f.expiries)
	}
}

func TestAnUploadStuckPastItsGraceFailsTheJob(t *testing.T) {
	f := &fakeJob{expire: []csvimport.UploadState{csvimport.UploadUnderway, csvimport.UploadExpired}}
	result := run(t, f, func(*testsuite.TestWorkflowEnvironment) {})
	if result.Status != csvimport.Failed || len(f.expiries) != 2 || !f.expiries[1].Force {
		t.Errorf("result %v, expiries %v", result.Status, f.expiries)
	}
}

func TestARejectedFileFailsWithItsReason(t *testing.T) {
	f := &fakeJob{process: func(context.Context) error {
		return temporal.NewNonRetryableApplicationError("the header lacks the required column title", activities.ErrFileRejected, nil)
	}}
	result := run(t, f, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(UploadedSignal, nil) }, time.Minute)
	})
	last := f.statuses[len(f.statuses)-1]
	if result.Status != csvimport.Failed || last.Error != "the header lacks the required column title" || f.reports != 0 {
		t.Errorf("result %v, last status %+v, reports %d", result.Status, last, f.reports)
	}
}

func TestCancellingARunningImportStopsTheActivity(t *testing.T) {
	stopped := make(chan struct{})
	var accepted, completed bool
	f := &fakeJob{}
	f.process = func(ctx context.Context) error {
		// The cancel comes while the activity runs, as a seller's would.
		f.env.UpdateWorkflow(CancelUpdate, "cancel-1", &testsuite.TestUpdateCallback{
			OnAccept:   func() { accepted = true },
			OnReject:   func(err error) { t.Errorf("cancel refused: %v", err) },
			OnComplete: func(_ any, err error) { completed = err == nil },
		})
		for {
			select {
			case <-ctx.Done():
				close(stopped)
				return ctx.Err()
			case <-time.After(10 * time.Millisecond):
				activity.RecordHeartbeat(ctx, 1)
			}
		}
	}
	result := run(t, f, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(UploadedSignal, nil) }, time.Minute)
	})
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Error("the processing activity was not cancelled")
	}
	got := f.recorded()
	if result.Status != csvimport.Cancelled || got[len(got)-1] != csvimport.Cancelled || f.reports != 0 || !accepted || !completed {
		t.Errorf("result %v, statuses %v, reports %d, accepted %v, completed %v", result.Status, got, f.reports, accepted, completed)
	}
	// The rows stored before the cancel stay, and enter the index.
	if len(f.indexed) != 1 || f.indexed[0] != len(got) {
		t.Errorf("search indexing after statuses %v, want once after all %d", f.indexed, len(got))
	}
}

func TestAnImportPastRunningRefusesCancel(t *testing.T) {
	f := &fakeJob{}
	var refused error
	f.report = func() {
		f.env.UpdateWorkflow(CancelUpdate, "cancel-late", &testsuite.TestUpdateCallback{
			OnAccept: func() {}, OnReject: func(err error) { refused = err }, OnComplete: func(any, error) {},
		})
	}
	result := run(t, f, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(UploadedSignal, nil) }, time.Minute)
	})
	if refused == nil || result.Status != csvimport.Completed {
		t.Errorf("a cancel while the report is written: refused %v, result %v", refused, result.Status)
	}
}
