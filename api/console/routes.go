package console

import (
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/console"
)

// access is who may use a route.
type access int

const (
	// public routes need no session: signing in, the language switch.
	public access = iota
	// signedIn routes are open to every signed-in account.
	signedIn
	// operatorRoles routes are open to operators of the route's roles.
	operatorRoles
)

// route is one entry of the console's route table.
type route struct {
	method, path string
	access       access
	// roles are the operator roles an operatorRoles route is open to.
	roles []console.Role
	// nav is the catalog key of the route's entry in the navigation, when
	// it has one.
	nav    string
	handle func(*server, *fiber.Ctx) error
}

// routes is the console's route table: every route and who may use it.
// The rights test (rights_test.go) is generated from it. It is a function
// because the navigation, which its handlers draw, is made from it.
func routes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/", access: signedIn, handle: (*server).home},
		{method: fiber.MethodGet, path: "/sign-in", access: public, handle: (*server).signInPage},
		{method: fiber.MethodPost, path: "/sign-in", access: public, handle: (*server).signIn},
		{method: fiber.MethodPost, path: "/sign-out", access: signedIn, handle: (*server).signOut},
		{method: fiber.MethodGet, path: "/language/:lang", access: public, handle: (*server).chooseLanguage},
		{method: fiber.MethodGet, path: "/review", access: operatorRoles, roles: []console.Role{console.Reviewer, console.Admin},
			nav: "nav.review", handle: (*server).reviewQueue},
		{method: fiber.MethodPost, path: "/review/:id/accept", access: operatorRoles, roles: []console.Role{console.Reviewer, console.Admin},
			handle: (*server).accept},
		{method: fiber.MethodPost, path: "/review/:id/decline", access: operatorRoles, roles: []console.Role{console.Reviewer, console.Admin},
			handle: (*server).decline},
		{method: fiber.MethodGet, path: "/offers/:id", access: operatorRoles, roles: []console.Role{console.Reviewer, console.Finance, console.Admin},
			handle: (*server).offer},
		{method: fiber.MethodGet, path: "/audit", access: operatorRoles, roles: []console.Role{console.Admin},
			nav: "nav.audit", handle: (*server).auditLog},
	}
}

// allows says whether a signed-in account may use the route.
func (r route) allows(u console.User) bool {
	switch r.access {
	case public, signedIn:
		return true
	case operatorRoles:
		return u.Kind == console.Operator && slices.Contains(r.roles, u.Role)
	}
	return false
}
