package console

import (
	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/guard"
)

// problem answers a page saying what is wrong, in the request's language.
func (s *server) problem(c *fiber.Ctx, status int, key string, args ...any) error {
	v := s.view(c, "problem.title")
	v.Problem = v.Tf(key, args...)
	return s.pages.render(c, status, "problem.html", v)
}

// failed answers a fault: logged with the request id, which the page
// names, and nothing of its internals shown.
func (s *server) failed(c *fiber.Ctx, err error) error {
	id := guard.RequestID(c)
	s.Logger.ErrorContext(c.UserContext(), "console request failed", "request_id", id, "path", c.Path(), "error", err)
	return s.problem(c, fiber.StatusInternalServerError, "problem.failed", id)
}
