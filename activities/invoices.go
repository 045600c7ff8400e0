package activities

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/webhook"
)

// announceInvoice records the invoice.issued event of an invoice issued
// in the transaction (none when issued is nil), with the customer's
// signed link to its PDF. An order that cannot be invoiced (no mandate,
// no billing address) holds up no contract: the change goes on without
// the invoice, logged, and what it would bill stays uninvoiced.
func (a *Contracts) announceInvoice(ctx context.Context, q *dbgen.Queries, fx *effects, issued *invoicing.Issued, err error) error {
	if errors.Is(err, invoicing.ErrNotInvoiceable) {
		a.Logger.WarnContext(ctx, "no invoice issued", slog.String("reason", err.Error()))
		return nil
	}
	if err != nil || issued == nil {
		return err
	}
	record, err := invoicing.Load(ctx, q, issued.SellerID, issued.ID)
	if err != nil {
		return err
	}
	record.CustomerURL = a.Invoicing.Links.URL(issued.ID, time.Now())
	payload, err := json.Marshal(record)
	if err != nil {
		return err
	}
	return fx.emit(webhook.NewEvent{
		ID:       webhook.EventID(invoicing.EventSource(issued.ID)),
		SellerID: issued.SellerID,
		Type:     webhook.InvoiceIssued,
		ObjectID: issued.ID,
		Payload:  payload,
	})
}
