package contracts

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// StoredQuote is an early termination quote as PostgreSQL holds it and the
// Seller API shows it (GET /v1/contracts/{id}/termination-quote): the
// quote, its id to accept it by, and when it was accepted.
type StoredQuote struct {
	ID         uuid.UUID `json:"id"`
	ContractID uuid.UUID `json:"contract_id"`
	Quote
	AcceptedAt *time.Time `json:"accepted_at"`
	CreatedAt  time.Time  `json:"created_at"`
}

// LoadQuote reads a quote of a contract; a missing one (or another
// contract's) is the query's no-rows error.
func LoadQuote(ctx context.Context, q *dbgen.Queries, contractID, quoteID uuid.UUID) (StoredQuote, error) {
	row, err := q.GetTerminationQuote(ctx, dbgen.GetTerminationQuoteParams{ContractID: contractID, ID: quoteID})
	if err != nil {
		return StoredQuote{}, err
	}
	s := StoredQuote{ID: row.ID, ContractID: row.ContractID, AcceptedAt: row.AcceptedAt, CreatedAt: row.CreatedAt}
	if err := json.Unmarshal(row.Quote, &s.Quote); err != nil {
		return StoredQuote{}, fmt.Errorf("termination quote %s is unreadable: %w", row.ID, err)
	}
	return s, nil
}
