package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/openapi"
)

// sellerContract serves the Seller API contract this server implements.
func sellerContract(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "application/yaml")
	return c.Send(openapi.Seller)
}

// customerContract serves the Customer-Facing API contract this server
// implements.
func customerContract(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "application/yaml")
	return c.Send(openapi.Customer)
}
