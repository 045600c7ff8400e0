package guard

import (
	"io"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
)

// drainLimit is how far beyond the limit a refused body is still read
// (and discarded): a client that sends a body slightly over the limit then
// reads the 413 instead of finding its connection reset while it writes.
const drainLimit = 256 << 10

// LimitBody reads a request body in full, up to limit bytes, before the
// handlers see it. The server streams bodies (so an upload is never held
// in memory), which also lifts fasthttp's own limit: this keeps it for
// every route registered after it, chunked bodies included.
func LimitBody(limit int) fiber.Handler {
	return func(c *fiber.Ctx) error {
		req := c.Request()
		if !req.IsBodyStream() {
			return c.Next()
		}
		if n := req.Header.ContentLength(); n > limit {
			if n <= limit+drainLimit {
				_, _ = io.CopyN(io.Discard, req.BodyStream(), int64(n))
			}
			return refuseBody(c, fiber.ErrRequestEntityTooLarge)
		}
		body, err := io.ReadAll(io.LimitReader(req.BodyStream(), int64(limit)+1))
		if err != nil {
			return refuseBody(c, apierror.BadRequest("the request body could not be read completely"))
		}
		if len(body) > limit {
			_, _ = io.CopyN(io.Discard, req.BodyStream(), drainLimit)
			return refuseBody(c, fiber.ErrRequestEntityTooLarge)
		}
		req.SetBody(body)
		return c.Next()
	}
}

// refuseBody answers a body that was not read to its end with err and
// closes the connection after the answer: the rest of the body must not
// be read as the next request.
func refuseBody(c *fiber.Ctx, err error) error {
	c.Context().SetConnectionClose()
	return err
}
