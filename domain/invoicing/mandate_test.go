package invoicing_test

import (
	"errors"
	"testing"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/mandates"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// An order's mandate is its offer's once the acceptance signed it: before
// that, and without one, the order has none to announce a debit under.
func TestCheckoutMandatesAreTheOffersSignedMandate(t *testing.T) {
	ctx := t.Context()
	f := contracttest.New(t, testenv.Database(t), nil)
	ring, err := f.Config.Mandates.IBANRing()
	if err != nil {
		t.Fatal(err)
	}
	source := invoicing.CheckoutMandates{Ring: ring}
	orderID := f.Order(t, "ref-mandate", contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 100000, MonthlyNet: 3000, Months: 12, Rented: true})
	order, err := f.Store.GetOrder(ctx, dbgen.GetOrderParams{SellerID: f.SellerID, ID: orderID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := source.OrderMandate(ctx, f.Store.Queries, order); !errors.Is(err, invoicing.ErrNoMandate) {
		t.Fatalf("without a mandate: %v", err)
	}
	iban, err := sepa.ParseIBAN("DE89 3704 0044 0532 0130 00")
	if err != nil {
		t.Fatal(err)
	}
	given, err := mandates.Give(ctx, f.Store, ring, mandates.Gift{
		OfferID: order.OfferID, SellerID: f.SellerID, ContractualEntity: "tenure", CreditorID: "DE98ZZZ09999999999", Scheme: sepa.B2B,
		Debtor: mandates.Debtor{IBAN: iban, AccountHolder: "Müller & Söhne GmbH"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := source.OrderMandate(ctx, f.Store.Queries, order); !errors.Is(err, invoicing.ErrNoMandate) {
		t.Fatalf("before the acceptance signed it: %v", err)
	}
	if _, err := f.Store.SignOfferMandate(ctx, order.OfferID); err != nil {
		t.Fatal(err)
	}
	m, err := source.OrderMandate(ctx, f.Store.Queries, order)
	if err != nil || m.Reference != given.Reference || m.Scheme != sepa.B2B || m.CreditorID != "DE98ZZZ09999999999" || !m.DebtorIBAN.Equal(iban) {
		t.Errorf("mandate %+v (%v), given %+v", m, err, given)
	}
}
