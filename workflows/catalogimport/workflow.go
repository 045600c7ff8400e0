package catalogimport

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/workflows/call"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// ImportCSV runs one CSV import job from its creation to its end.
func ImportCSV(ctx workflow.Context, in Input) (Result, error) {
	j := &job{input: in, status: csvimport.Pending}
	if err := j.setup(ctx); err != nil {
		return Result{}, err
	}
	result, err := j.run(ctx)
	if err != nil {
		return result, err
	}
	return result, j.indexSearch(ctx)
}

// searchIndexChange is the change that made the job let its products into
// the search index once it has ended (decision 0280); the histories of
// jobs that ran before it end without that step.
const searchIndexChange = "search-index-after-import"

// a names the CSV import activities; the worker registers the real ones.
var a *activities.CSVImports

type job struct {
	input Input
	// status is the last status recorded; running is recorded by the
	// processing activity itself and shows here as queued.
	status          csvimport.Status
	uploaded        bool
	cancelRequested bool
	finished        bool
	stopProcessing  workflow.CancelFunc
	acts            workflow.Context
	processing      workflow.Context
}

func (j *job) setup(ctx workflow.Context) error {
	retry := &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumInterval:        time.Minute,
		NonRetryableErrorTypes: []string{activities.ErrFileRejected, activities.ErrImportNotFound},
	}
	j.acts = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         retry,
	})
	j.processing = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// A million rows take minutes; the margin covers a slow database.
		StartToCloseTimeout: 2 * time.Hour,
		// The activity beats after every chunk; the cancel update reaches
		// it through the answer to a beat.
		HeartbeatTimeout: 20 * time.Second,
		// Wait for the activity to stop, so that "cancelled" is recorded
		// after its last chunk, never before.
		WaitForCancellation: true,
		RetryPolicy:         retry,
	})
	uploads := workflow.GetSignalChannel(ctx, UploadedSignal)
	workflow.Go(ctx, func(ctx workflow.Context) {
		uploads.Receive(ctx, nil)
		j.uploaded = true
	})
	return workflow.SetUpdateHandlerWithOptions(ctx, CancelUpdate, j.cancel, workflow.UpdateHandlerOptions{
		Validator: j.validateCancel,
	})
}

func (j *job) validateCancel() error {
	if !Cancellable(j.status) || j.finished {
		return entity.Refuse(CancelRefusal(j.status))
	}
	return nil
}

// cancel stops the job and completes once it is recorded as cancelled.
func (j *job) cancel(ctx workflow.Context) error {
	j.cancelRequested = true
	if j.stopProcessing != nil {
		j.stopProcessing()
	}
	if err := workflow.Await(ctx, func() bool { return j.finished }); err != nil {
		return err
	}
	if j.status != csvimport.Cancelled {
		return entity.Refuse(refusal.New(refusal.StatusNotAllowed, "the import became %s before it could be cancelled", j.status))
	}
	return nil
}

func (j *job) run(ctx workflow.Context) (Result, error) {
	received, err := j.awaitUpload(ctx)
	if err != nil {
		return Result{}, err
	}
	if !received {
		// The expiry activity recorded the failure.
		return j.finish(ctx, UploadExpiry, "", false)
	}
	if j.cancelRequested {
		return j.finish(ctx, Cancel, "", true)
	}
	if err := j.record(ctx, Upload, ""); err != nil {
		return Result{}, err
	}
	if j.cancelRequested {
		return j.finish(ctx, Cancel, "", true)
	}
	if ended, reason, done := j.process(); done {
		return j.finish(ctx, ended, reason, true)
	}
	if err := j.record(ctx, RowsStored, ""); err != nil {
		return Result{}, err
	}
	if err := call.Effect(j.acts, a.WriteCSVImportErrors, j.input.ImportID); err != nil {
		return Result{}, err
	}
	return j.finish(ctx, ReportWritten, "", true)
}

// awaitUpload waits for the file until the link expires, and past that
// for an upload under way; false when no file came (or the job was
// cancelled while waiting).
func (j *job) awaitUpload(ctx workflow.Context) (bool, error) {
	arrived := func() bool { return j.uploaded || j.cancelRequested }
	wait := j.input.UploadDeadline.Sub(workflow.Now(ctx))
	for _, force := range []bool{false, true} {
		ok, err := workflow.AwaitWithTimeout(ctx, max(wait, time.Millisecond), arrived)
		if err != nil || ok {
			return ok, err
		}
		state, err := call.Activity(j.acts, a.ExpireCSVUpload, activities.CSVUploadExpiry{ImportID: j.input.ImportID, Force: force})
		if err != nil {
			return false, err
		}
		switch state {
		case csvimport.UploadExpired:
			return false, nil
		case csvimport.UploadReceived:
			// The signal is on its way (or its sender died): go on.
			return true, nil
		}
		wait = UploadGrace
	}
	return false, nil
}

// process runs the processing activity; done is true when the job ends
// there, with what ended it and the reason to record.
func (j *job) process() (ended statemachine.Trigger, reason string, done bool) {
	ctx, stop := workflow.WithCancel(j.processing)
	j.stopProcessing = stop
	defer func() { j.stopProcessing = nil }()
	err := call.Effect(ctx, a.ProcessCSVImport, j.input.ImportID)
	var appErr *temporal.ApplicationError
	switch {
	case j.cancelRequested:
		// Rows committed before the activity stopped stay.
		return Cancel, "", true
	case errors.As(err, &appErr) && appErr.Type() == activities.ErrFileRejected:
		return FileRejected, appErr.Message(), true
	case err != nil:
		return Fault, "the import stopped on an internal error; rows stored before it stay", true
	}
	return statemachine.Trigger{}, "", false
}

// indexSearch lets the products the job stored into the trigram index,
// after its final status is recorded: the job's time is the rows' way
// into the catalog, where a search already finds them, and the index
// follows. It runs whatever ended the job, as rows stored before a cancel
// or a fault stay.
func (j *job) indexSearch(ctx workflow.Context) error {
	if workflow.GetVersion(ctx, searchIndexChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return nil
	}
	// The processing options fit: minutes for a million rows, a beat
	// after every batch.
	return call.Effect(j.processing, a.IndexCSVImportSearch, j.input.ImportID)
}

// record persists the status the table says a trigger leads to (a job
// that ended meanwhile keeps its status, and the workflow sees it).
func (j *job) record(ctx workflow.Context, t statemachine.Trigger, reason string) error {
	to := Transitions.Target(t)
	workflow.GetLogger(ctx).Info("import "+t.Name, "from", j.status, "to", to)
	recorded, err := call.Activity(j.acts, a.SetCSVImportStatus, activities.CSVStatusChange{ImportID: j.input.ImportID, Status: to, Error: reason})
	if err == nil {
		j.status = recorded.Status
	}
	return err
}

// finish records the final status a trigger leads to (unless an activity
// did) and lets the pending cancel updates answer before the workflow ends.
func (j *job) finish(ctx workflow.Context, t statemachine.Trigger, reason string, persist bool) (Result, error) {
	if persist {
		if err := j.record(ctx, t, reason); err != nil {
			return Result{}, err
		}
	} else {
		j.status = Transitions.Target(t)
	}
	j.finished = true
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return Result{}, err
	}
	return Result{Status: j.status}, nil
}
