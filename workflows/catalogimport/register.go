package catalogimport

import (
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// Register registers the CSV import workflow and its activities with the
// worker of TaskQueue.
func Register(r worker.Registry, a *activities.CSVImports) {
	r.RegisterWorkflow(ImportCSV)
	call.Register(r, a.ProcessCSVImport, a.SetCSVImportStatus, a.ExpireCSVUpload, a.WriteCSVImportErrors, a.IndexCSVImportSearch)
}
