// Package catalogbench holds the catalog's performance benchmarks (product
// import throughput, paginated term search over a million products,
// recommended rental prices for 100 products). They need PostgreSQL and the
// Temporal dev server and take minutes, so only `make bench-catalog` runs
// them; `go test ./...` runs none.
package catalogbench
