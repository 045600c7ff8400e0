package console

import (
	"github.com/gofiber/fiber/v2"
	"github.com/skip2/go-qrcode"
)

// qrSize is the QR code's side in pixels: big enough for a phone's camera
// at arm's length, over a counter or from a screen.
const qrSize = 320

// sendQR answers with the QR code of a text as a PNG, never stored, as
// what it encodes (a checkout link, a TOTP key) is the account's or the
// customer's alone.
func (s *server) sendQR(c *fiber.Ctx, text string) error {
	png, err := qrcode.Encode(text, qrcode.Medium, qrSize)
	if err != nil {
		return s.failed(c, err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, "image/png")
	return c.Send(png)
}
