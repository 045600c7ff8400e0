// Package sellerapi holds the Seller API server interface and models generated from api/openapi/seller.yaml; do not edit.
package sellerapi
