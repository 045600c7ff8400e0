// Package dbgen is the query code sqlc generates from db/queries and
// db/migrations (`make generate`); nothing in it is edited by hand.
package dbgen
