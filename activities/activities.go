// Package activities holds the side effects of Tenure's workflows:
// persistence, pricing, file processing and webhook delivery. Every activity
// is idempotent, so Temporal may run it more than once.
package activities

import (
	"github.com/tenurehq/tenure/db"
)

// Activities gathers the activity groups the worker registers.
type Activities struct {
	Sandbox *SandboxFixtures
}

// New builds the activity groups over their dependencies.
func New(store *db.Store) *Activities {
	return &Activities{
		Sandbox: &SandboxFixtures{Store: store},
	}
}
