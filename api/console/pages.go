package console

import "github.com/gofiber/fiber/v2"

// PagePaths are the paths (under Base) of the route table's GET routes,
// in the table's order: the console benchmark
// (internal/bench/consolebench) measures every list page among them and
// fails when one is neither measured nor named as no list, so a new list
// page cannot go unmeasured.
func PagePaths() []string {
	var out []string
	for _, r := range routes() {
		if r.method == fiber.MethodGet {
			out = append(out, r.path)
		}
	}
	return out
}
