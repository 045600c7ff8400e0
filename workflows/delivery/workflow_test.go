package delivery

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/webhook"
)

// script answers SendAttempt with the given verdicts in turn and keeps
// what RecordAttempt was told.
type script struct {
	verdicts []activities.Verdict
	sentAt   []time.Time
	recorded []activities.RecordInput
	failures int
	// interrupted is the attempt whose worker died while sending (0: none).
	interrupted int32
}

func (s *script) env(t *testing.T) *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	Register(env, a)
	env.OnActivity(a.SendAttempt, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.AttemptInput) (activities.AttemptOutcome, error) {
		if s.failures > 0 {
			s.failures--
			return activities.AttemptOutcome{}, errors.New("database unavailable")
		}
		s.sentAt = append(s.sentAt, env.Now())
		if in.Attempt == s.interrupted {
			return activities.AttemptOutcome{Verdict: activities.VerdictFailed, ErrorClass: webhook.ClassInterrupted}, nil
		}
		return activities.AttemptOutcome{Verdict: s.verdicts[in.Attempt-1]}, nil
	})
	env.OnActivity(a.RecordAttempt, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.RecordInput) error {
		s.recorded = append(s.recorded, in)
		return nil
	})
	return env
}

func input(delays ...time.Duration) webhook.DeliveryRun {
	return webhook.DeliveryRun{EventID: uuid.New(), EndpointID: uuid.New(), Run: 1, Delays: delays, AttemptTimeout: 15 * time.Second}
}

func result(t *testing.T, env *testsuite.TestWorkflowEnvironment) Result {
	t.Helper()
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDeliverWaitsTheScheduleBetweenAttempts(t *testing.T) {
	s := &script{verdicts: []activities.Verdict{activities.VerdictFailed, activities.VerdictFailed, activities.VerdictDelivered, activities.VerdictDelivered}}
	env := s.env(t)
	env.ExecuteWorkflow(Deliver, input(0, 5*time.Second, 5*time.Minute, 30*time.Minute))
	if r := result(t, env); r.Status != webhook.DeliveryDelivered || r.Attempts != 3 {
		t.Errorf("result %+v", r)
	}
	if len(s.sentAt) != 3 || s.sentAt[1].Sub(s.sentAt[0]) < 5*time.Second || s.sentAt[2].Sub(s.sentAt[1]) < 5*time.Minute {
		t.Errorf("attempts at %v", s.sentAt)
	}
	if len(s.recorded) != 3 || s.recorded[2].Attempt.Attempt != 3 || s.recorded[2].Last {
		t.Errorf("recorded %+v", s.recorded)
	}
}

func TestDeliverFailsWhenAttemptsRunOut(t *testing.T) {
	s := &script{verdicts: []activities.Verdict{activities.VerdictFailed, activities.VerdictFailed}}
	env := s.env(t)
	env.ExecuteWorkflow(Deliver, input(0, time.Hour))
	if r := result(t, env); r.Status != webhook.DeliveryFailed || r.Attempts != 2 {
		t.Errorf("result %+v", r)
	}
	if len(s.recorded) != 2 || !s.recorded[1].Last || s.recorded[0].Last {
		t.Errorf("only the last attempt is marked last: %+v", s.recorded)
	}
}

func TestDeliverStopsOnGoneAndOnStopped(t *testing.T) {
	for verdict, want := range map[activities.Verdict]string{activities.VerdictGone: webhook.DeliveryFailed, activities.VerdictStopped: webhook.DeliveryCancelled} {
		s := &script{verdicts: []activities.Verdict{activities.VerdictFailed, verdict, activities.VerdictDelivered}}
		env := s.env(t)
		env.ExecuteWorkflow(Deliver, input(0, time.Minute, time.Minute))
		if r := result(t, env); r.Status != want || len(s.sentAt) != 2 {
			t.Errorf("%s: result %+v after %d attempts", verdict, r, len(s.sentAt))
		}
	}
}

// An attempt its worker's death interrupted is followed by the next at
// once: the endpoint did not fail. A failed attempt still waits.
func TestDeliverSendsAtOnceAfterAnInterruptedAttempt(t *testing.T) {
	s := &script{verdicts: []activities.Verdict{activities.VerdictFailed, activities.VerdictFailed, activities.VerdictFailed, activities.VerdictDelivered}, interrupted: 2}
	env := s.env(t)
	env.ExecuteWorkflow(Deliver, input(0, 5*time.Second, 5*time.Minute, 30*time.Minute))
	if r := result(t, env); r.Status != webhook.DeliveryDelivered || r.Attempts != 4 {
		t.Errorf("result %+v", r)
	}
	if len(s.sentAt) != 4 || s.sentAt[1].Sub(s.sentAt[0]) < 5*time.Second || s.sentAt[2] != s.sentAt[1] || s.sentAt[3].Sub(s.sentAt[2]) < 30*time.Minute {
		t.Errorf("attempts at %v", s.sentAt)
	}
	if len(s.recorded) != 4 || s.recorded[1].Outcome.ErrorClass != webhook.ClassInterrupted {
		t.Errorf("recorded %+v", s.recorded)
	}
}

// A send activity failing before it sends (the database is down) is
// retried by Temporal; it does not count as an attempt.
func TestDeliverRetriesInfrastructureFailures(t *testing.T) {
	s := &script{verdicts: []activities.Verdict{activities.VerdictDelivered}, failures: 2}
	env := s.env(t)
	env.ExecuteWorkflow(Deliver, input(0))
	if r := result(t, env); r.Status != webhook.DeliveryDelivered || r.Attempts != 1 || len(s.recorded) != 1 {
		t.Errorf("result %+v, recorded %d", r, len(s.recorded))
	}
}

func TestWorkflowID(t *testing.T) {
	ev, ep := uuid.MustParse("0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f"), uuid.MustParse("0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e60")
	if got := WorkflowID(ev, ep); got != "webhook/0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f/0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e60" {
		t.Errorf("got %s", got)
	}
}
