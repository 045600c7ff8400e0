// Package activities holds the side effects of Tenure's workflows:
// persistence, pricing, file processing and webhook delivery. Every activity
// is idempotent, so Temporal may run it more than once.
package activities

import (
	"log/slog"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/catalog"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
)

// Deps are what activities need from the process that runs them.
type Deps struct {
	Config   *config.Config
	Store    *db.Store
	Temporal client.Client
	Logger   *slog.Logger
}

// Activities gathers the activity groups the worker registers.
type Activities struct {
	Sandbox *SandboxFixtures
	Catalog *CatalogImports
}

// New builds the activity groups over their dependencies.
func New(d Deps) *Activities {
	importer := catalog.Importer{Policy: catalog.NewPolicy(d.Config)}
	return &Activities{
		Sandbox: &SandboxFixtures{Store: d.Store, Importer: importer},
		Catalog: &CatalogImports{Imports: catalog.Imports{Store: d.Store, Importer: importer}},
	}
}
