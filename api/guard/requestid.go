package guard

import (
	"regexp"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// requestIDHeader carries the id of a request in both directions: a caller
// may send its own (to correlate logs), otherwise Tenure makes one.
const requestIDHeader = "X-Request-Id"

const requestIDKey = "tenure.request_id"

var callerRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

func requestIDMiddleware(c *fiber.Ctx) error {
	id := c.Get(requestIDHeader)
	if !callerRequestID.MatchString(id) {
		id = uuid.NewString()
	}
	c.Locals(requestIDKey, id)
	c.Set(requestIDHeader, id)
	return c.Next()
}

// requestID is the id of the request being served; errors raised before the
// middleware ran (such as an oversized body) get a fresh one.
func requestID(c *fiber.Ctx) string {
	if id, ok := c.Locals(requestIDKey).(string); ok {
		return id
	}
	id := uuid.NewString()
	c.Locals(requestIDKey, id)
	c.Set(requestIDHeader, id)
	return id
}

// RequestID is the id of the request being served, as its response's
// X-Request-Id header names it.
func RequestID(c *fiber.Ctx) string { return requestID(c) }
