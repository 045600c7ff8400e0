// Package histories records the event histories that the workflow packages
// replay in their tests (workflows/*/testdata/histories), and the stored
// offers and orders with the views the Seller API rendered from them
// (api/seller/testdata/views). It drives Tenure's real stack: the API and the
// worker over PostgreSQL and the Temporal dev server. Recording runs on
// demand only, from the code whose histories are wanted:
//
//	TENURE_RECORD_HISTORIES=1 go test ./internal/testing/histories -run TestRecordHistories -count=1 -v
package histories
