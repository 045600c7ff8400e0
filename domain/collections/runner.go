package collections

import (
	"github.com/google/uuid"
	"gocloud.dev/blob"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Runner runs collections over the database and the blob store the files
// are kept in.
type Runner struct {
	Store     *db.Store
	Bucket    *blob.Bucket
	Creditors Creditors
	// BankDays is the creditor's bank's own lead time in business days,
	// on top of the scheme's (collections.bank_days).
	BankDays int
}

// runNamespace derives the ids of runs and files from what they are, so a
// repeated run finds its rows.
var runNamespace = uuid.MustParse("5c2f1d64-6a4e-4d1c-9a55-1f0c8c6b7e21")

// RunID is the id of the run of a date.
func RunID(runDate civil.Date) uuid.UUID {
	return uuid.NewSHA1(runNamespace, []byte("collection-run/"+runDate.String()))
}

// CollectionDateOf is the collection date a run on runDate asks for: the
// earliest the banks take for a file delivered that day under either
// scheme, so one date serves the run's every file.
func CollectionDateOf(runDate civil.Date, bankDays int) civil.Date {
	c := sepa.EarliestCollectionDate(runDate, sepa.Core, bankDays)
	if b := sepa.EarliestCollectionDate(runDate, sepa.B2B, bankDays); b.After(c) {
		return b
	}
	return c
}
