// Package openapi embeds Tenure's OpenAPI documents: the contract the Seller
// API is generated from, validates requests against and serves to readers.
package openapi

import _ "embed"

// Seller is api/openapi/seller.yaml: the Seller API, the scenario
// simulations and Tenure's extensions.
//
//go:embed seller.yaml
var Seller []byte
