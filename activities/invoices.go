package activities

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/webhook"
)

// announceInvoice records the invoice.issued event of an invoice issued
// in the transaction (none when issued is nil), with the customer's
// signed link to its PDF. An order without a mandate gets no invoice: the
// invoice announces a direct debit, and the change goes on without it,
// logged.
func (a *Contracts) announceInvoice(ctx context.Context, q *dbgen.Queries, fx *effects, issued *invoicing.Issued, err error) error {
	if errors.Is(err, invoicing.ErrNoMandate) {
		a.Logger.WarnContext(ctx, "no invoice issued: the order has no SEPA mandate")
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
