// Package tenure is the root of Tenure, an open-source rental-financing
// platform: merchants sync a catalog, get rental prices, create offers that
// their customers check out, and follow accepted offers as orders through
// webhooks. The command lives in cmd/tenure; README.md explains how to run it.
//
// This package holds no code: its tests check the repository as a whole,
// the files at its root (docker-compose.yml), the direction of its
// dependencies (layers_test.go declares every package's layer) and the
// links of its Markdown documents (docs_links_test.go).
package tenure
