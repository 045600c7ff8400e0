package catalogimport

import (
	"testing"

	"github.com/tenurehq/tenure/internal/testing/replay"
)

// The histories recorded from earlier code replay without nondeterminism.
func TestRecordedHistoriesReplay(t *testing.T) {
	replay.Histories(t, "testdata/histories", ImportCSV)
}
