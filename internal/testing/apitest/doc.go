// Package apitest is what the tests of the HTTP packages (api, api/guard,
// api/seller, api/customer) share: a harness that serves Tenure's
// application over a fresh database and the test package's Temporal dev
// server and checks every answer against the contracts, and fixtures of
// sellers, catalogs, offers and their customers built through the APIs.
package apitest
