package csvimport

import (
	"context"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// activeStatuses are the statuses of the import queue, each exported even
// when no job has it, so a graph shows zero instead of a gap.
var activeStatuses = []Status{Pending, Queued, Running}

// QueueBacklog is the gauge of the CSV import queue: jobs waiting for
// their upload, queued or running, per status.
func QueueBacklog(store *db.Store) telemetry.Backlog {
	return telemetry.Backlog{
		Name:  "tenure_csv_imports",
		Help:  "CSV import jobs pending an upload, queued or running, per status.",
		Label: "status",
		Count: func(ctx context.Context) (map[string]int64, error) {
			rows, err := store.CountCSVImportQueue(ctx)
			counts := make(map[string]int64, len(activeStatuses))
			for _, s := range activeStatuses {
				counts[string(s)] = 0
			}
			for _, r := range rows {
				counts[r.Status] = r.Jobs
			}
			return counts, err
		},
	}
}
