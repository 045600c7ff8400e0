// Package mandates keeps the SEPA direct-debit mandates customers give at
// checkout: one per offer, given (and replaced) while the offer is open,
// signed when the offer is accepted, and read by the collections of the
// order's contracts.
//
// The debtor's IBAN is sealed at rest with the mandates.iban_keys ring
// (AES-256-GCM, bound to the mandate's id) and shown only masked; Open is
// the one way back to the number, for the collection file.
package mandates
