// Package catalogimport is the workflow of a CSV catalog import job
// (catalog-import/{id}): it waits for the upload, runs the processing
// activity (which the cancel update can stop), writes the error report,
// records every status the job moves through and, once the job has ended,
// lets the products it stored into the search index.
package catalogimport

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/csvimport"
)

// TaskQueue is the queue of catalog workflows and activities.
const TaskQueue = "catalog"

// WorkflowID names the workflow of one job.
func WorkflowID(importID uuid.UUID) string { return "catalog-import/" + importID.String() }

// Input says which recorded job to run and until when its upload link works.
type Input struct {
	ImportID       uuid.UUID
	UploadDeadline time.Time
}

// Result is the job's final status.
type Result struct {
	Status csvimport.Status
}

// UploadedSignal tells the workflow that the file is stored.
const UploadedSignal = "uploaded"

// CancelUpdate cancels the job; its validator refuses a job that is past
// running, and it completes once the job is cancelled.
const CancelUpdate = "cancel"

// UploadGrace is how long an upload that started before its link expired
// may take to finish.
const UploadGrace = time.Hour
