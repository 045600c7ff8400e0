package catalog

import (
	"context"
	"errors"

	"github.com/google/uuid"
)

// Flight is a chunk of a file import on its way into the catalog in a
// transaction of its own. Writing a chunk is mostly one PostgreSQL
// backend's work, so the import's next chunk is revised and written in
// another transaction while this one's is still open (decision 0281);
// Revise publishes here what that next chunk needs to know of this one,
// once it has placed its rows. The caller commits the two in order.
type Flight struct {
	// ahead is the chunk before this one while it is still to consider.
	ahead *Flight
	// settled waits until the flight's transaction has committed and the
	// import goes on, or says why it will not.
	settled func(context.Context) error

	// placed is closed once the fields below are set.
	placed chan struct{}
	// err is why the flight placed nothing.
	err error
	// replaces is set when the flight replaces catalog products: the next
	// chunk then waits for its commit, as what it finds of the catalog
	// would otherwise be the products as they were before.
	replaces bool
	// stored holds the pairs of the flight's stored rows, which name
	// products of this import in any later row.
	stored map[Reference]bool
	// supported holds the new products given a support slot.
	supported []uuid.UUID
}

// NewFlight starts the flight of a chunk that follows ahead (nil for an
// import's first chunk, or one whose predecessor has committed); settled
// waits for the new flight's own transaction to commit.
func NewFlight(ahead *Flight, settled func(context.Context) error) *Flight {
	return &Flight{ahead: ahead, settled: settled, placed: make(chan struct{})}
}

// errAheadFailed stops a chunk whose predecessor failed before placing its
// rows; the caller reports the predecessor's own error.
var errAheadFailed = errors.New("the import's chunk before this one failed")

// Clear waits until the chunk before this one has placed its rows, and,
// if it replaces catalog products, until it has committed. The caller
// calls it before opening the transaction Revise runs in, so that a chunk
// holds no connection while it waits for the one before: the one before
// may still be waiting for a connection of the pool itself. An error
// says this chunk stores nothing, which the chunk after it is told. A
// second call returns at once.
func (f *Flight) Clear(ctx context.Context) (err error) {
	a := f.ahead
	if a == nil {
		return nil
	}
	defer func() {
		if err != nil {
			f.publish(nil, err)
		}
	}()
	select {
	case <-a.placed:
	case <-ctx.Done():
		return ctx.Err()
	}
	if a.err != nil {
		return errAheadFailed
	}
	if a.replaces {
		if err := a.settled(ctx); err != nil {
			return err
		}
		f.ahead = nil
	}
	return nil
}

// clearance is the chunk before this one while its transaction may still
// be open, once Clear has waited for it; nil when there is none to
// consider: there was none, or it replaces catalog products and has
// committed.
func (f *Flight) clearance(ctx context.Context) (*Flight, error) {
	if err := f.Clear(ctx); err != nil {
		return nil, err
	}
	a := f.ahead
	// The chain of flights would otherwise hold every chunk's pairs.
	f.ahead = nil
	return a, nil
}

// publish tells the next chunk what c, the chunk placed, stores; err says
// it stores nothing. Only the first call of a flight counts: Revise
// publishes once its rows are placed, or when it fails before that.
func (f *Flight) publish(c *chunkLoad, err error) {
	select {
	case <-f.placed:
		return
	default:
	}
	if c != nil && err == nil {
		f.stored = make(map[Reference]bool, len(c.rows))
		for _, row := range c.rows {
			f.replaces = f.replaces || row.replaces
			for _, r := range row.product.References {
				f.stored[r] = true
			}
			if !row.replaces && row.verdict.Status == Supported {
				f.supported = append(f.supported, row.id)
			}
		}
	}
	f.err = err
	close(f.placed)
}

// storedPair reports whether the flight, nil or not, stores pair r.
func (f *Flight) storedPair(r Reference) bool { return f != nil && f.stored[r] }

// supportedIDs is the new products the flight, nil or not, gave a slot.
func (f *Flight) supportedIDs() []uuid.UUID {
	if f == nil {
		return nil
	}
	return f.supported
}
