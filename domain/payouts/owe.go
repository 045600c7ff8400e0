package payouts

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/ledger"
)

// Fee is the financing fee of a financed amount at a rate in basis
// points, rounded half up to the cent.
func Fee(financed, basisPoints int64) int64 {
	return (financed*basisPoints + 5000) / 10000
}

// Terms are how a completed order's seller is owed: the fee, and the
// entity that pays a seller without its own contractual entity.
type Terms struct {
	FeeBasisPoints int64
	DefaultEntity  string
}

// TermsOf are the terms of a configuration.
func TermsOf(cfg *config.Config) Terms {
	return Terms{FeeBasisPoints: cfg.Payouts.FeeBasisPoints, DefaultEntity: cfg.Sellers.DefaultContractualEntity}
}

// Owe books what a completed order's seller is owed, in the transaction
// that completes it: the payout, and the purchase of the equipment (Dr
// rental_assets the financed amount, Cr seller_payable the payout, Cr
// financing_fee_income the fee). An order without rented lines owes
// nothing; a retried completion books nothing twice.
func (t Terms) Owe(ctx context.Context, q *dbgen.Queries, order dbgen.Order) error {
	purchase, err := q.OrderPurchaseNet(ctx, order.ID)
	if err != nil || purchase.Net == 0 {
		return err
	}
	seller, err := q.GetSeller(ctx, order.SellerID)
	if err != nil {
		return err
	}
	entity := seller.ContractualEntity
	if entity == "" {
		entity = t.DefaultEntity
	}
	financed, fee := purchase.Net, Fee(purchase.Net, t.FeeBasisPoints)
	_, err = q.CreatePayout(ctx, dbgen.CreatePayoutParams{
		ID: uuid.Must(uuid.NewV7()), SellerID: order.SellerID, OrderID: order.ID, ContractualEntity: entity,
		Currency: purchase.Currency, Financed: financed, Fee: fee, Amount: financed - fee,
	})
	if db.IsNotFound(err) {
		return nil // owed by a run that committed
	}
	if err != nil {
		return err
	}
	_, err = ledger.Post(ctx, q, ledger.Journal{
		Key: "order/" + order.ID.String() + "/purchase", Kind: "purchase", Currency: purchase.Currency,
		Entries: []ledger.Entry{
			ledger.Debit(ledger.RentalAssets, financed),
			ledger.Credit(ledger.SellerPayable, financed-fee).Seller(order.SellerID),
			ledger.Credit(ledger.FinancingFeeIncome, fee),
		},
	})
	return err
}
