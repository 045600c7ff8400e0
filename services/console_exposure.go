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

// withExposure fills in the exposure of each item's company, every
// company of the page in one statement (CompanyExposures).
func (c *Console) withExposure(ctx context.Context, items []ReviewItem) error {
	var p dbgen.CompanyExposuresParams
	company := map[string]int32{}
	of := make([]int32, len(items))
	for i := range items {
		of[i] = -1
		doc := items[i].Offer.Document
		keys := risk.CompanyKeys(doc)
		if len(keys) == 0 {
			continue
		}
		currency := doc.Currency()
		name := currency + "\x00" + strings.Join(keys, "\x00")
		n, ok := company[name]
		if !ok {
			n = int32(len(company))
			company[name] = n
			for _, key := range keys {
				p.Companies, p.Keys, p.Currencies = append(p.Companies, n), append(p.Keys, key), append(p.Currencies, currency)
			}
		}
		of[i] = n
	}
	if len(company) == 0 {
		return nil
	}
	var rows []dbgen.CompanyExposuresRow
	err := c.Offers.Store.InTx(ctx, func(q *dbgen.Queries) error {
		// The planner estimates hundreds of decisions per company where
		// there are tens (the keys' && on their GIN index), so the plan's
		// cost passes jit_above_cost and PostgreSQL would compile it at
		// every request: 20–45 ms more for a statement of about 12 ms
		// with 1,000,000 offers (decision 0277).
		if err := q.NoJITInTransaction(ctx); err != nil {
			return err
		}
		var err error
		rows, err = q.CompanyExposures(ctx, p)
		return err
	})
	if err != nil {
		return err
	}
	read := make(map[int32]dbgen.CompanyExposuresRow, len(rows))
	for _, r := range rows {
		read[r.Company] = r
	}
	for i := range items {
		if r, ok := read[of[i]]; ok {
			items[i].Exposure = Exposure{Known: true, OpenNet: r.OpenNet, Currency: items[i].Offer.Document.Currency(), Offers: r.Offers}
		}
	}
	return nil
}
