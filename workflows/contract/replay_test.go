package contract_test

import (
	"testing"

	"github.com/tenurehq/tenure/internal/testing/replay"
	"github.com/tenurehq/tenure/workflows/contract"
)

// The histories recorded from earlier code replay without nondeterminism.
func TestRecordedHistoriesReplay(t *testing.T) {
	replay.Histories(t, "testdata/histories", contract.Contract)
}
