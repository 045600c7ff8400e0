package invoicing

import (
	"context"
	"fmt"

	"github.com/tenurehq/tenure/db/dbgen"
)

// takeNumber takes a contractual entity's next invoice number of a year,
// e.g. "2026-000017": sequential per entity and year without gaps, the
// year making each number unique across the years (§14 (4) No. 4 UStG
// allows a series per year). It must run in the transaction that stores
// the invoice: the counter stays locked until it ends.
func takeNumber(ctx context.Context, q *dbgen.Queries, entity string, year int) (string, error) {
	n, err := q.TakeInvoiceNumber(ctx, dbgen.TakeInvoiceNumberParams{ContractualEntity: entity, Year: int32(year)})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d-%06d", year, n), nil
}
