// Package offerbench holds the offer and order benchmarks (make
// bench-offers): offer creation over HTTP against the dev stack with the raw
// workflow-start rate of the same server, reads of one offer at a fixed
// rate, full lifecycles sustained for two minutes, and what metrics and
// tracing cost offer creation.
package offerbench
