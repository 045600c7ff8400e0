package catalogimport

import (
	"strings"

	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// The triggers of a CSV import job's transitions.
var (
	// Upload is the signal that the file is stored.
	Upload = statemachine.Trigger{Name: "upload"}
	// UploadExpiry is the upload link's deadline passing without a file.
	UploadExpiry = statemachine.Trigger{Name: "upload expiry"}
	// Cancel is DELETE /v1/catalog/imports/{id}.
	Cancel = statemachine.Trigger{Name: "cancel", Update: "cancel", Verb: "cancelled"}
	// ProcessingStart is the processing activity taking the job.
	ProcessingStart = statemachine.Trigger{Name: "processing start"}
	// RowsStored is the processing activity's end: every row stored or
	// reported.
	RowsStored = statemachine.Trigger{Name: "rows stored"}
	// FileRejected is the file refused as a whole (not CSV, a required
	// column missing).
	FileRejected = statemachine.Trigger{Name: "file rejected"}
	// Fault is an internal error the retries did not overcome.
	Fault = statemachine.Trigger{Name: "fault"}
	// ReportWritten is the error report written.
	ReportWritten = statemachine.Trigger{Name: "error report written"}
)

// Transitions is the CSV import job's state machine
// (docs/decisions/0061-csv-import-statuses.md). The processing activity
// records running itself.
var Transitions = statemachine.Table[csvimport.Status]{Noun: "imports", Rows: []statemachine.Transition[csvimport.Status]{
	{From: csvimport.Pending, Trigger: Upload, To: csvimport.Queued},
	{From: csvimport.Pending, Trigger: UploadExpiry, To: csvimport.Failed},
	{From: csvimport.Pending, Trigger: Cancel, To: csvimport.Cancelled},
	{From: csvimport.Queued, Trigger: ProcessingStart, To: csvimport.Running},
	{From: csvimport.Queued, Trigger: Cancel, To: csvimport.Cancelled},
	{From: csvimport.Running, Trigger: Cancel, To: csvimport.Cancelled},
	{From: csvimport.Running, Trigger: RowsStored, To: csvimport.Ingested},
	{From: csvimport.Running, Trigger: FileRejected, To: csvimport.Failed},
	{From: csvimport.Running, Trigger: Fault, To: csvimport.Failed},
	{From: csvimport.Ingested, Trigger: ReportWritten, To: csvimport.Completed},
}}

// Cancellable reports whether a job in a status can still be cancelled.
func Cancellable(s csvimport.Status) bool { return Transitions.Allows(s, Cancel.Update) }

// CancelRefusal refuses to cancel a job in a status past running.
func CancelRefusal(s csvimport.Status) *refusal.Error {
	var from []string
	for _, f := range Transitions.Sources(Cancel.Update) {
		from = append(from, string(f))
	}
	list := strings.Join(from[:len(from)-1], ", ") + " or " + from[len(from)-1]
	return refusal.New(refusal.StatusNotAllowed, "the import is %s: only %s imports can be cancelled", s, list)
}
