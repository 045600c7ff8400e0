// Package offerbench holds the offer and order benchmarks (make
// bench-offers): offer creation over HTTP against the dev stack with the raw
// workflow-start rate of the same server, reads of one offer at a fixed
// rate, and full lifecycles sustained for two minutes.
package offerbench
