// Package observetest checks what operators see of a running Tenure: the
// metrics its admin listener serves after real operations, one trace from
// an HTTP request down to SQL and the webhook attempt, and the Grafana
// dashboard's queries against the metrics Tenure exports.
package observetest
