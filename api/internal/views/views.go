// Package views holds what the views of the Seller API and of the
// Customer-Facing API share.
package views

// Of renders each item with view, in order. An empty list renders as
// an empty array, never null: the contracts require their lists.
func Of[T, V any](items []T, view func(T) V) []V {
	out := make([]V, len(items))
	for i, item := range items {
		out[i] = view(item)
	}
	return out
}
