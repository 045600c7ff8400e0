package services

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/workflows/contract"
)

// Collections is what operators do with the collection runs' files and the
// bank's answers to them, from the command line and the console alike:
// read a stored pain.008 file, and import a camt.054 notification through
// the contracts' workflows.
type Collections struct {
	Store    *db.Store
	Temporal client.Client
	// Runner reads the files from the blob store they are kept in.
	Runner *collections.Runner
}

// ErrCollectionFileNotFound is a collection file that does not exist.
var ErrCollectionFileNotFound = errors.New("collection file not found")

// OpenFile is a stored pain.008 file with its row; the caller closes it.
func (s *Collections) OpenFile(ctx context.Context, id uuid.UUID) (dbgen.CollectionFile, io.ReadCloser, error) {
	f, err := s.Store.GetCollectionFile(ctx, id)
	if db.IsNotFound(err) {
		return f, nil, ErrCollectionFileNotFound
	}
	if err != nil {
		return f, nil, err
	}
	r, err := s.Runner.Open(ctx, f)
	return f, r, err
}

// NotificationError says what is wrong with a bank notification file: it
// is not a camt.054.001.08 document, or not one Tenure can read. Nothing
// of such a file is imported.
type NotificationError struct{ Err error }

func (e *NotificationError) Error() string { return e.Err.Error() }

func (e *NotificationError) Unwrap() error { return e.Err }

// ImportReturns applies a camt.054 notification: booked collections become
// paid, returned ones failed with their reason, each through its
// contract's workflow (or directly, for a contract whose workflow has
// ended), so events and dunning follow. The file is read whole once
// before anything is applied: a file that cannot be read is a
// NotificationError and changes nothing. Importing a file again changes
// nothing; an import that failed on the way may be repeated.
func (s *Collections) ImportReturns(ctx context.Context, file io.ReadSeeker) (collections.Imported, error) {
	for _, err := range sepa.ReadNotifications(file) {
		if err != nil {
			return collections.Imported{}, &NotificationError{Err: err}
		}
	}
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return collections.Imported{}, fmt.Errorf("reading the notification again: %w", err)
	}
	return s.Runner.ImportNotifications(ctx, file, contract.DeliverNotices(s.Temporal, s.Runner.ApplyOwn))
}
