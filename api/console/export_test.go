package console

import (
	"github.com/tenurehq/tenure/domain/console"
)

// What the tests of package console_test need of the route table and the
// request's names; they live outside the package, as testenv imports api.
const (
	SessionCookie = sessionCookie
	CSRFField     = csrfField
	CSRFHeader    = csrfHeader
)

// RouteRights is a route of the table as the rights test reads it.
type RouteRights struct {
	Method, Path string
	Public       bool
	Allows       func(console.User) bool
}

// RouteTable is the route table.
func RouteTable() []RouteRights {
	var out []RouteRights
	for _, r := range routes() {
		out = append(out, RouteRights{Method: r.method, Path: r.path, Public: r.access == public, Allows: r.allows})
	}
	return out
}
