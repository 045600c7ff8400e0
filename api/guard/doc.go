// Package guard is everything a request to Tenure's HTTP APIs passes
// before a handler, and the one error handler after it: the request id,
// trace, metrics and access log of every request; the limits of its head
// and body; the rate limits of what it proves (per seller, offer, shared
// token and client address) and the throttle of failed client
// authentications; the seller's and the customer's bearer tokens and the
// provider's signed callbacks; the token endpoint; the contracts'
// operations, whose guard checks scopes, parameters and bodies against
// the contract before the generated handler binds them; Idempotency-Key,
// whose ledger is foundation/idempotency. The handlers of both APIs
// (api/seller, api/customer) read the claims it leaves in the request's
// context.
package guard
