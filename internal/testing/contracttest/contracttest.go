// Package contracttest makes rental contracts for tests and benchmarks:
// a seller's order of rented lines written as an accepted offer writes it
// (orders.FromOffer) and confirmed by the real order activities, so its
// contracts await delivery in PostgreSQL exactly as they do in
// production; shipments through the same activities.
package contracttest

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/api/seller"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/delivery"
	"github.com/tenurehq/tenure/workflows/order"
)

// TaxRate is the rate of the fixtures' prices (19 %).
const TaxRate = 1900

// Line is a line of a fixture order: Quantity units of a product known by
// its sku Reference, bought at UnitNet or rented for Months at MonthlyNet
// a unit (net minor units, EUR, taxed at TaxRate).
type Line struct {
	Reference  string
	Quantity   int64
	UnitNet    int64
	MonthlyNet int64
	Months     int
	Rented     bool
}

// Fixture is a seller with the activities of the real worker over a
// database.
type Fixture struct {
	Store     *db.Store
	Config    *config.Config
	SellerID  uuid.UUID
	Orders    *activities.Orders
	Contracts *activities.Contracts
}

// New makes a seller in the store and the activities that act on its
// orders and contracts. Events find no endpoint to deliver to unless the
// test registers one; starters start the workflows the activities ask for
// (nil when the test starts none).
func New(t testing.TB, store *db.Store, starters activities.Starters) *Fixture {
	t.Helper()
	cfg := testenv.Config(t)
	shop, err := auth.CreateSeller(t.Context(), store, "Contract Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	acts, err := activities.New(activities.Deps{
		Config: cfg, Store: store, Logger: testenv.AppLogger(),
		Dispatcher: delivery.NewDispatcher(store, nil, cfg.Webhooks), Views: seller.NewEventViews(cfg), Starters: starters,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &Fixture{Store: store, Config: cfg, SellerID: shop.Seller.ID, Orders: acts.Orders, Contracts: acts.Contracts}
}

// Order writes an order of the lines, in created, as the acceptance of an
// offer of them writes it.
func (f *Fixture) Order(t testing.TB, reference string, lines ...Line) uuid.UUID {
	t.Helper()
	ctx := t.Context()
	offerID, orderID := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	doc := offers.Document{Customer: customer()}
	for i, l := range lines {
		price := pricing.FromNet("EUR", l.UnitNet, TaxRate)
		price.TaxRate = 0 // offer lines store the Seller API's price
		line := offers.Line{
			ID: fmt.Sprintf("l%d", i), Title: "Product " + l.Reference, Quantity: l.Quantity, Price: price,
			References: []catalog.Reference{{Source: "sku", Reference: l.Reference}},
			Terms:      &offers.Terms{PayNow: &offers.PayNowTerm{Amount: price}},
		}
		if l.Rented {
			monthly := pricing.FromNet("EUR", l.MonthlyNet, TaxRate)
			monthly.TaxRate = 0
			line.Terms.Rent = &offers.RentTerm{Duration: l.Months, Monthly: monthly}
		}
		doc.Lines = append(doc.Lines, line)
	}
	now := time.Now()
	// The offer's row as the offer service writes it (its search text too).
	row, err := offers.Row(offers.Draft{
		ID: offerID, SellerID: f.SellerID, SellerOfferReference: reference, SalesChannel: "ecommerce", Document: doc, ExpiresAt: now.Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Store.CreateOffer(ctx, row); err != nil {
		t.Fatal(err)
	}
	offer := offers.Stored{Row: dbgen.Offer{ID: offerID, SellerID: f.SellerID, SellerOfferReference: reference, CreatedAt: now}, Document: doc}
	made, err := orders.FromOffer(orderID, offer, orders.Seller{ID: f.SellerID, Name: "Contract Shop", Currency: "EUR"})
	if err != nil {
		t.Fatal(err)
	}
	err = f.Store.InTx(ctx, func(q *dbgen.Queries) error {
		if _, err := q.CreateOrder(ctx, made.Order); err != nil {
			return err
		}
		_, err := q.CreateOrderAssets(ctx, made.Assets)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return orderID
}

// Invoicing makes the fixture's contract activities issue invoices with
// the test mandates.
func (f *Fixture) Invoicing() *invoicing.Issuing {
	f.Contracts.Invoicing = invoicing.New(f.Config, testenv.Mandates{})
	return f.Contracts.Invoicing
}

// customer is the fixture orders' customer: a German company, as its
// invoices name it.
func customer() offers.Customer {
	name, vat, email := "Müller & Söhne GmbH", "DE987654321", "buchhaltung@mueller.example"
	return offers.Customer{
		Company: &offers.Company{
			Name: &name, VATNumber: &vat,
			BillingAddress: &offers.Address{Line1: "Königsallee 9", PostalCode: "40212", City: "Düsseldorf", CountryCode: "DE"},
		},
		Email: &email,
	}
}

// Confirm accepts an order as its workflow does, which writes its
// contracts, and answers their ids in line order.
func (f *Fixture) Confirm(t testing.TB, orderID uuid.UUID) []uuid.UUID {
	t.Helper()
	row := order.Transitions.Must(orders.Created, order.Accept)
	err := f.Orders.Accept(t.Context(), activities.OrderTransition{OrderID: orderID, SellerID: f.SellerID, From: row.From, To: row.To, Event: row.Event})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := f.Orders.Contracts(t.Context(), activities.OrderRef{OrderID: orderID, SellerID: f.SellerID})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// Ship records a shipment of the order from the status it is in, as its
// workflow does, shipping one unit per serial number of the product the
// reference names.
func (f *Fixture) Ship(t testing.TB, orderID uuid.UUID, reference string, serialNumbers ...string) activities.OrderShipped {
	t.Helper()
	current, err := f.Store.GetOrder(t.Context(), dbgen.GetOrderParams{SellerID: f.SellerID, ID: orderID})
	if err != nil {
		t.Fatal(err)
	}
	from := orders.Status(current.Status)
	shipment := orders.Shipment{TrackingURL: "https://tracking.example/" + orderID.String()}
	for _, sn := range serialNumbers {
		shipment.SerialNumbers = append(shipment.SerialNumbers, orders.SerialNumber{Source: "sku", Reference: reference, SerialNumber: sn})
	}
	some, all := order.Transitions.Must(from, order.ShipSome), order.Transitions.Must(from, order.ShipAll)
	shipped, err := f.Orders.Ship(t.Context(), activities.OrderShipment{
		OrderID: orderID, SellerID: f.SellerID, ShipmentID: uuid.New(), From: from, Shipment: shipment,
		Partial:  activities.OrderTarget{To: some.To, Event: some.Event},
		Complete: activities.OrderTarget{To: all.To, Event: all.Event},
	})
	if err != nil {
		t.Fatal(err)
	}
	return shipped
}
