package guard

import (
	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
)

// Limits of a request's head (its request line and headers). A URL or a
// header beyond them is refused before any handler reads it, like the body
// limit; they are generous for any client of the API (the longest query
// an integration sends is far below 1 KiB).
const (
	// maxURILength bounds the path and query as sent (414 beyond).
	maxURILength = 8 << 10
	// maxHeaderLength bounds one header line, name and value (431 beyond).
	maxHeaderLength = 8 << 10
	// MaxHeadLength bounds the whole head, request line included: fasthttp
	// reads a head into a buffer of this size and answers 431 when it does
	// not fit, so it is also the server's ReadBufferSize.
	MaxHeadLength = 16 << 10
)

// limitHead refuses a head whose URL or one of whose headers is too long;
// a head over MaxHeadLength never gets here (fasthttp refuses it).
func limitHead(c *fiber.Ctx) error {
	if n := len(c.Request().RequestURI()); n > maxURILength {
		return apierror.URITooLong("the request URL is %d bytes long; at most %d bytes are accepted", n, maxURILength)
	}
	var tooLong []byte
	c.Request().Header.VisitAll(func(k, v []byte) {
		if tooLong == nil && len(k)+len(v)+2 > maxHeaderLength {
			tooLong = k
		}
	})
	if tooLong != nil {
		if len(tooLong) > 64 {
			return apierror.HeadersTooLarge("a header is longer than %d bytes", maxHeaderLength)
		}
		return apierror.HeadersTooLarge("header %q is longer than %d bytes", tooLong, maxHeaderLength)
	}
	return c.Next()
}
