// Package customerapi holds the Customer-Facing API server interface and models generated from api/openapi/customer.yaml; do not edit.
package customerapi
