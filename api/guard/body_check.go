package guard

import (
	"errors"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/openapi"
)

// BodyCheck checks a request body against one operation of the Seller
// API's contract as the guard checks a request to it: its text and limits,
// then its schema. The console builds an offer's body from a form and
// checks it so, so that the form is refused where POST /v1/offers would
// refuse the same offer, in the same words.
type BodyCheck struct{ schema *openapi3.Schema }

// SellerBodyCheck is the check of the JSON body of the Seller API's
// operation operationID.
func SellerBodyCheck(operationID string) (*BodyCheck, error) {
	ops, err := loadContract(openapi.Seller)
	if err != nil {
		return nil, err
	}
	for _, op := range ops {
		rb := op.route.Operation.RequestBody
		if op.id != operationID || rb == nil || rb.Value == nil {
			continue
		}
		if media := rb.Value.Content.Get("application/json"); media != nil && media.Schema != nil {
			return &BodyCheck{schema: media.Schema.Value}, nil
		}
	}
	return nil, fmt.Errorf("the Seller API has no operation %s with a JSON body", operationID)
}

// Check answers what is wrong with a body, one message for each field at
// fault (the API answers the first), each naming its field as the API's
// 400 does ("field customer.company.name must be at least 3
// characters"); none when it passes.
func (b *BodyCheck) Check(raw []byte) []string {
	value, err := decodeBody(raw)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	var refused *apierror.Error
	if err := checkLimits(b.schema, value, nil); errors.As(err, &refused) {
		out = append(out, refused.Message)
	} else if err != nil {
		out = append(out, err.Error())
	}
	if err := b.schema.VisitJSON(value, openapi3.VisitAsRequest(), openapi3.MultiErrors()); err != nil {
		for _, e := range flatten(err) {
			out = append(out, describeBodyError(e))
		}
	}
	return out
}

// flatten lists the schema's refusals, which nest a MultiError in another
// for each object and array on the way to the field.
func flatten(err error) []error {
	var many openapi3.MultiError
	if !errors.As(err, &many) {
		return []error{err}
	}
	var out []error
	for _, e := range many {
		out = append(out, flatten(e)...)
	}
	return out
}
