package services

import (
	"context"
	"strings"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/risk"
)

// Exposure is a customer company's open exposure as the console shows it
// beside an offer: what the company owes or has asked for at every seller
// of the deployment in the offer's currency, this offer included while it
// is under review or accepted. The company is known by the risk rules'
// keys (risk.CompanyKeys: VAT id, registration number, name with address),
// and the figure is the risk rules' own (the CompanyExposure query), so
// the operator sees what the rules see.
type Exposure struct {
	// Known is false for an offer whose company has no key (no VAT id, no
	// registration number, no name with an address): nothing can be summed.
	Known bool
	// OpenNet is the net amount in cents: offers under review or accepted
	// whose order was not canceled or rejected, each by its reservation
	// until its contracts have schedules, then by the installments still
	// owed.
	OpenNet  int64
	Currency string
	// Offers is how many offers OpenNet counts.
	Offers int64
}

// withExposure fills in the exposure of each item's company, reading each
// company of the page once.
func (c *Console) withExposure(ctx context.Context, items []ReviewItem) error {
	read := map[string]Exposure{}
	for i := range items {
		doc := items[i].Offer.Document
		keys := risk.CompanyKeys(doc)
		if len(keys) == 0 {
			continue
		}
		currency := doc.Currency()
		company := currency + "\x00" + strings.Join(keys, "\x00")
		e, ok := read[company]
		if !ok {
			row, err := c.Offers.Store.CompanyExposure(ctx, dbgen.CompanyExposureParams{Keys: keys, Currency: currency})
			if err != nil {
				return err
			}
			e = Exposure{Known: true, OpenNet: row.OpenNet, Currency: currency, Offers: row.Offers}
			read[company] = e
		}
		items[i].Exposure = e
	}
	return nil
}
