// Package collection is the daily collection run's workflow
// (collection-run-<date>): it submits what is owed on the run's
// collection date, then writes and stores the run's pain.008 files. A
// Temporal Schedule starts it every day at collections.run_at; `tenure
// collections run --date D` starts it by hand. Its id is its date, so a
// day has one run, and both steps are idempotent activities, so a worker
// killed in the middle resumes the run without losing or doubling a
// collection.
package collection

import (
	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/foundation/civil"
)

// TaskQueue is the queue of the collection workflows and activities.
const TaskQueue = "collections"

// WorkflowID names the run of a date.
func WorkflowID(runDate civil.Date) string { return "collection-run-" + runDate.String() }

// ScheduleID names the Schedule of the daily runs.
const ScheduleID = "collection-runs"

// Input names a run by its date.
type Input struct {
	RunDate civil.Date
}

// Result is what a run did.
type Result struct {
	CollectionDate civil.Date
	Submitted      int
	Files          int
	Transactions   int
}

// DailyResult is what a scheduled day did: its collection run (empty when
// the day was run by hand before) and its payout batch.
type DailyResult struct {
	Collections Result
	Payouts     activities.PayoutBatchSent
}

// DailyInput is the Schedule's: the location whose today a scheduled run
// collects for.
type DailyInput struct {
	Timezone string
}
