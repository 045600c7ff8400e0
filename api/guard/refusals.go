package guard

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/tenurehq/tenure/api/apierror"
)

// refusalStatuses are the statuses that refuse a request's input, in the
// order an operation picks the one it refuses bad input with: the first
// its contract lists. The published contract lists 422 or 404 but no 400
// for some operations (GET /v1/catalog/products_paginated answers 422,
// GET /v1/catalog/imports/{id} with a malformed id 404).
var refusalStatuses = []int{http.StatusBadRequest, http.StatusUnprocessableEntity, http.StatusNotFound}

// listedStatuses are the response statuses an operation's contract lists.
func listedStatuses(op *openapi3.Operation) map[int]bool {
	listed := map[int]bool{}
	if op.Responses == nil {
		return listed
	}
	for code := range op.Responses.Map() {
		if n, err := strconv.Atoi(code); err == nil {
			listed[n] = true
		}
	}
	return listed
}

// refusalStatus is the first refusal status an operation lists; 400 when
// it lists none (an exception the contract's description records).
func refusalStatus(listed map[int]bool) int {
	for _, s := range refusalStatuses {
		if listed[s] {
			return s
		}
	}
	return http.StatusBadRequest
}

// refusal answers a refusal of the operation's input with a status its
// contract lists: a refusal status it does not list becomes its refusal
// status, named after it. The message stays, so the client still learns
// what was wrong.
func (o *operation) refusal(e *apierror.Error) *apierror.Error {
	if e.EveryOperation || !slices.Contains(refusalStatuses, e.Status) || o.statuses[e.Status] {
		return e
	}
	moved := *e
	moved.Status = o.refusalStatus
	moved.Name = statusNames[o.refusalStatus]
	return &moved
}
