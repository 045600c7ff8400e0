package console

import (
	"net/url"

	"github.com/gofiber/fiber/v2"
)

// csrfField and csrfHeader carry a changing request's CSRF token: a form
// field, or a header for htmx requests that send none.
const (
	csrfField  = "csrf_token"
	csrfHeader = "X-CSRF-Token"
)

// rights lets a request through to its route when it may: a signed-out
// request to a page is sent to sign in (htmx and changing requests get
// 401), an account of another role gets 403, and a changing request needs
// its origin to be this one and its session's CSRF token (403 otherwise).
func (s *server) rights(r route) fiber.Handler {
	return func(c *fiber.Ctx) error {
		changing := c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead
		if changing && !sameOrigin(c) {
			return s.problem(c, fiber.StatusForbidden, "problem.csrf")
		}
		if r.access == public {
			return c.Next()
		}
		sess, ok := sessionOf(c)
		if !ok {
			return s.signedOut(c, changing)
		}
		if !r.allows(sess.User) {
			return s.problem(c, fiber.StatusForbidden, "problem.forbidden")
		}
		if changing {
			token := c.FormValue(csrfField)
			if token == "" {
				token = c.Get(csrfHeader)
			}
			if !sess.CSRFMatches(token) {
				return s.problem(c, fiber.StatusForbidden, "problem.csrf")
			}
		}
		return c.Next()
	}
}

// signedOut answers a request without a live session: a page is sent to
// sign in, returning here after; an htmx or changing request gets 401,
// htmx told where to go.
func (s *server) signedOut(c *fiber.Ctx, changing bool) error {
	signIn := Base + "/sign-in?next=" + url.QueryEscape(c.OriginalURL())
	if changing || c.Get("HX-Request") == "true" {
		c.Set("HX-Redirect", Base+"/sign-in")
		return s.problem(c, fiber.StatusUnauthorized, "problem.signed_out")
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Redirect(signIn, fiber.StatusSeeOther)
}

// sameOrigin says whether a changing request came from the console's own
// pages: the browser's Sec-Fetch-Site, else its Origin, must say so. A
// request naming neither (not a browser) passes to the CSRF check.
func sameOrigin(c *fiber.Ctx) bool {
	switch c.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return true
	case "":
	default:
		return false
	}
	origin := c.Get(fiber.HeaderOrigin)
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == string(c.Request().Host())
}
