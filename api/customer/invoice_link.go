package customer

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// InvoicePath is the path of the customer's signed link to an invoice's
// PDF (invoicing.CustomerPath), sent in invoice.issued. It is outside the
// Customer-Facing API: the link's token, not a customer's credentials,
// opens it, as a checkout link opens its offer.
const InvoicePath = "/downloads/invoices/:id/invoice.pdf"

// InvoiceLinks serve the customers' invoice links.
type InvoiceLinks struct {
	invoices *services.Invoices
}

// NewInvoiceLinks serves the invoice links through the invoice service.
func NewInvoiceLinks(invoices *services.Invoices) InvoiceLinks {
	return InvoiceLinks{invoices: invoices}
}

// PDF sends the invoice's PDF for a valid link; any other link is refused
// alike, telling nothing of the invoice.
func (h InvoiceLinks) PDF(c *fiber.Ctx) error {
	refused := apierror.Forbidden("the link to the invoice is not valid or has expired: ask the seller for the invoice")
	id, err := recordid.Parse(c.Params("id"))
	if err != nil {
		return refused
	}
	pdf, err := h.invoices.CustomerPDF(c.UserContext(), id, c.Query("token"))
	switch {
	case errors.Is(err, services.ErrLinkNotValid):
		return refused
	case errors.Is(err, services.ErrInvoiceNotFound):
		return apierror.NotFound("invoice not found")
	case err != nil:
		return err
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="invoice.pdf"`)
	c.Set(fiber.HeaderCacheControl, "private, no-store")
	return c.Send(pdf)
}
