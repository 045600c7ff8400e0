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
	// byRole routes are open to operators of the route's operator roles
	// and to seller users of its seller roles.
	byRole
)

// route is one entry of the console's route table.
type route struct {
	method, path string
	access       access
	// operators are the operator roles a byRole route is open to.
	operators []console.Role
	// sellers are the seller user roles a byRole route is open to; a
	// seller user sees only their own seller's records through it.
	sellers []console.Role
	// nav is the catalog key of the route's entry in the navigation, when
	// it has one.
	nav    string
	handle func(*server, *fiber.Ctx) error
}

// routes is the console's route table: every route and who may use it,
// gathered from the areas of the console, in the navigation's order. The
// rights test (rights_test.go) is generated from it. It is a function
// because the navigation, which its handlers draw, is made from it.
func routes() []route {
	return slices.Concat(
		accountRoutes(), invitationRoutes(),
		// The operators' back office.
		reviewRoutes(), moneyRoutes(), recordRoutes(), healthRoutes(), sellerRoutes(), auditRoutes(),
		// The merchant portal.
		portalHomeRoutes(), portalOfferRoutes(), portalOrderRoutes(), portalContractRoutes(), catalogRoutes(),
		portalWebhookRoutes(), portalAdminRoutes(), portalProfileRoutes(),
		// Every account's own.
		accountPageRoutes(),
	)
}

// allows says whether a signed-in account may use the route.
func (r route) allows(u console.User) bool {
	switch r.access {
	case public, signedIn:
		return true
	case byRole:
		switch u.Kind {
		case console.Operator:
			return slices.Contains(r.operators, u.Role)
		case console.SellerUser:
			return slices.Contains(r.sellers, u.Role)
		}
	}
	return false
}
