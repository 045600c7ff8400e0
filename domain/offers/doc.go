// Package offers is the offer domain: an offer's document (what Tenure
// stores in offers.document and carries to its workflow), the request a
// merchant makes, the builder that turns a request into a priced draft
// (every line found in the catalog, every rule of the spec checked), the
// statuses, how offers under review are decided (the production risk rules
// are package risk's), and the rows an offer is stored as.
// The offer workflow (workflows/offer) owns the statuses; the services
// package talks to it; the api package renders the Seller API's views.
package offers
