// Package openapi embeds Tenure's OpenAPI documents: the contracts the Seller
// API and the Customer-Facing API are generated from, validate requests
// against and serve to readers.
package openapi

import _ "embed"

// Seller is api/openapi/seller.yaml: the Seller API, the scenario
// simulations and Tenure's extensions.
//
//go:embed seller.yaml
var Seller []byte

// Customer is api/openapi/customer.yaml: the Customer-Facing API, mounted
// under the base path its servers[0].url names.
//
//go:embed customer.yaml
var Customer []byte
