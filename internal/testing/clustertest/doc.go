// Package clustertest proves the split topology of docker-compose.yml on a
// real Temporal server: the pinned server 1.29.1 persisting to PostgreSQL,
// two `tenure serve` and two `tenure worker` processes built from the
// checkout, offer lifecycles (two of them on to rental contracts run to
// their end on the sandbox's clock) and a CSV import driven through both
// APIs while a worker is killed and another started. Its test runs under
// `make test-cluster` (TENURE_TEST_CLUSTER=1) and is skipped otherwise.
package clustertest
