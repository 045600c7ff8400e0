package searchattr

import (
	"context"
	"fmt"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
)

// Ensure registers the search attributes the entity
// workflows set, unless the namespace has them already. The dev server gets
// them at start; a cluster gets them from the first worker.
func Ensure(ctx context.Context, c client.Client, namespace string) error {
	existing, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return fmt.Errorf("listing search attributes of namespace %s: %w", namespace, err)
	}
	missing := map[string]enums.IndexedValueType{}
	for name, kind := range All() {
		if _, ok := existing.GetCustomAttributes()[name]; ok {
			continue
		}
		value, err := enums.IndexedValueTypeFromString(kind)
		if err != nil {
			return fmt.Errorf("search attribute %s: %w", name, err)
		}
		missing[name] = value
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace: namespace, SearchAttributes: missing,
	})
	if err != nil {
		return fmt.Errorf("registering search attributes %v in namespace %s: %w", missing, namespace, err)
	}
	return nil
}
