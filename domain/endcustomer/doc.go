// Package checkout holds the rules of the end customer's checkout that do
// not depend on prices: who the customer is (legal forms per country, VAT
// numbers, phone numbers, addresses), what must be known before an offer
// can be accepted, and when the customer's identity must be verified.
//
// The package is pure: no HTTP, no database, no clock. Inputs and outputs
// are plain structs in the API's vocabulary; problems are FieldErrors named
// by the API's JSON paths, all of them at once, so a caller can answer a
// single ValidationError. Prices of the checkout live in package pricing.
package endcustomer
