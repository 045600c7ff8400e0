package api

import (
	"io"

	"github.com/gofiber/fiber/v2"
)

// limitBody reads a request body in full, up to limit bytes, before the
// handlers see it. The server streams bodies (so an upload is never held
// in memory), which also lifts fasthttp's own limit: this keeps it for
// every route registered after it, chunked bodies included.
func limitBody(limit int) fiber.Handler {
	return func(c *fiber.Ctx) error {
		req := c.Request()
		if !req.IsBodyStream() {
			return c.Next()
		}
		if req.Header.ContentLength() > limit {
			return fiber.ErrRequestEntityTooLarge
		}
		body, err := io.ReadAll(io.LimitReader(req.BodyStream(), int64(limit)+1))
		if err != nil {
			return BadRequest("the request body could not be read: %v", err)
		}
		if len(body) > limit {
			return fiber.ErrRequestEntityTooLarge
		}
		req.SetBody(body)
		return c.Next()
	}
}
