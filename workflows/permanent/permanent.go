// Package permanent tells the failures no retry can cure (data the
// database refuses, stored data that cannot be read, an input the domain
// rules refuse) from those that pass (a database restart, a lost
// connection), and stops Temporal from retrying the first kind: a worker
// interceptor turns them into non-retryable errors of one type, for every
// activity and local activity of every worker.
package permanent

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/refusal"
)

// ErrorType is the Temporal application error type of a permanent failure.
const ErrorType = "PermanentFailure"

// Classify reports whether err is permanent and why, in words that name
// the kind of failure without the SQL behind it. Anything it does not
// recognise is left retryable: a wrongly retried failure costs attempts,
// a wrongly abandoned one loses work.
func Classify(err error) (reason string, permanent bool) {
	if err == nil {
		return "", false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return databaseReason(pgErr)
	}
	var syntax *json.SyntaxError
	var mistyped *json.UnmarshalTypeError
	if errors.As(err, &syntax) || errors.As(err, &mistyped) {
		return "data it reads is not the JSON it expects", true
	}
	if refusal := refusalOf(err); refusal != nil {
		return "its input was refused: " + refusal.Error(), true
	}
	// A workflow this activity waited on already failed for good (an
	// update whose own activity failed permanently, for instance).
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.NonRetryable() {
		return "a step it waited on failed permanently: " + app.Message(), true
	}
	return "", false
}

// databaseReason classifies by SQLSTATE: class 22 (data exception) and 23
// (integrity constraint violation) are permanent, since the same
// statement with the same data fails again; every other class (40
// serialization failures and deadlocks, 08 connection, 57 operator
// intervention, 53 insufficient resources, 42 a schema not migrated yet)
// may pass.
func databaseReason(e *pgconn.PgError) (string, bool) {
	switch e.Code {
	case "23503":
		return "a record it refers to does not exist, or a record it removes is still referred to", true
	case "23505":
		return "a record with the same unique key exists already", true
	case "23514":
		return "a value breaks a rule the stored data must follow", true
	case "23502":
		return "a required value is missing", true
	case "23P01":
		return "it conflicts with an existing record", true
	case "22P05", "22021":
		return "a text holds a character the database cannot store (such as NUL)", true
	case "22001":
		return "a text is longer than the database allows", true
	case "22003":
		return "a number is out of the range the database allows", true
	case "22007", "22008":
		return "a date or time is not valid", true
	}
	switch {
	case strings.HasPrefix(e.Code, "23"):
		return "it breaks an integrity rule of the stored data", true
	case strings.HasPrefix(e.Code, "22"):
		return "a value is not valid for the database", true
	}
	return "", false
}

// refusalOf finds a refusal of the domain rules in err's chain: the same
// input is refused again however often it is tried.
func refusalOf(err error) error {
	var refused *refusal.Error
	var invalid *refusal.Invalid
	var shipment *orders.ShipmentError
	switch {
	case errors.As(err, &refused):
		return refused
	case errors.As(err, &invalid):
		return invalid
	case errors.As(err, &shipment):
		return shipment
	}
	return nil
}
