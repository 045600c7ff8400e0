// Package csvbench measures CSV catalog imports end to end on the real
// stack (API, worker, PostgreSQL, Temporal): a generated file of a million
// rows against psql's \copy of the same rows, a re-import of it, and the
// process's peak memory with a small and a large file. Run it with
// `make bench-csv`; the figures go to docs/performance.md.
package csvbench
