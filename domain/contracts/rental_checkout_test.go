package contracts

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
)

// TestRentalOfAnOrderLineAgreedAtCheckout prices an offer line with the
// pricing engine, lets the customer choose a term, a service and a
// discount, makes the order as orders.FromOffer does and reads the
// order's stored document back: the contract's monthly net is the
// checkout's, its gross that net taxed at the product's rate once.
func TestRentalOfAnOrderLineAgreedAtCheckout(t *testing.T) {
	engine, err := pricing.New(pricing.Config{
		Durations: []int{12, 24, 36}, DefaultDuration: 36,
		Rates:           map[string]map[int]int64{"hardware": {12: 450, 24: 325, 36: 275}},
		DefaultCategory: "hardware",
		Services:        map[string]map[string]pricing.ServiceTerms{"hardware": {pricing.ServiceReplace: {MonthlyNet: 999, DeductibleNet: 9900}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rate, net, quantity int64
		months              int
		service             bool
		discount            *pricing.Discount
	}{
		{1900, 123456, 3, 24, true, &pricing.Discount{ID: "ten", BasisPoints: 1000}},
		{1900, 99900, 1, 36, false, nil},
		{700, 45678, 7, 12, true, &pricing.Discount{ID: "fixed", FixedNet: 1234, Currency: "EUR"}},
		{2100, 250001, 2, 36, true, nil},
		{0, 80001, 5, 24, false, &pricing.Discount{ID: "five", BasisPoints: 500}},
	} {
		product := pricing.Product{Price: pricing.FromNet("EUR", tc.net, tc.rate), Category: "hardware"}
		price, err := engine.PriceLine(pricing.Line{Main: product, Quantity: tc.quantity})
		if err != nil {
			t.Fatal(err)
		}
		selection := pricing.Selection{LineID: "l1", TermID: pricing.LineRentTermID("l1", tc.months)}
		if tc.service {
			selection.ServiceIDs = []string{pricing.ServiceID("l1", pricing.ServiceReplace)}
		}
		checkout, err := engine.PriceForCustomer(pricing.CustomerRequest{
			Currency:   "EUR",
			Lines:      []pricing.OfferLine{{ID: "l1", Category: "hardware", Quantity: tc.quantity, Price: price}},
			Selections: []pricing.Selection{selection},
			Discount:   tc.discount,
		})
		if err != nil {
			t.Fatal(err)
		}
		agreement := offers.AgreementOf(checkout, nil, "")
		offerPrice := product.Price
		offerPrice.TaxRate = 0 // offer lines store the Seller API's price
		doc := offers.Document{
			Lines: []offers.Line{{
				ID: "l1", Title: "Laptop", Quantity: tc.quantity, Price: offerPrice,
				Terms: &offers.Terms{PayNow: &offers.PayNowTerm{Amount: product.Price}, Rent: &offers.RentTerm{Duration: 36, Monthly: price.Rent[2].Monthly}},
			}},
			Checkout: &offers.CustomerSide{Agreement: &agreement},
		}
		order, err := orders.FromOffer(uuid.New(), offers.Stored{Row: dbgen.Offer{ID: uuid.New(), SellerID: uuid.New()}, Document: doc}, orders.Seller{})
		if err != nil {
			t.Fatal(err)
		}
		var document orders.Document
		if err := json.Unmarshal(order.Order.Document, &document); err != nil {
			t.Fatal(err)
		}
		r, err := RentalOf(document.Lines[0])
		if err != nil {
			t.Fatal(err)
		}
		agreed := checkout.Lines[0].Monthly
		if r.Months != tc.months || r.Monthly.Net != agreed.Net || r.Monthly.TaxRate != tc.rate ||
			r.Monthly != pricing.FromNet("EUR", agreed.Net, tc.rate) || r.PurchaseNet != tc.net*tc.quantity {
			t.Errorf("%+v: rental %+v, the checkout's monthly %+v", tc, r, agreed)
		}
		// The checkout added gross amounts rounded per unit; the contract
		// rounds the net once: they differ by a few cents at most.
		if d := r.Monthly.Gross - agreed.Gross; d < -tc.quantity || d > tc.quantity {
			t.Errorf("%+v: the contract's gross %d is far from the checkout's %d", tc, r.Monthly.Gross, agreed.Gross)
		}
	}
}
