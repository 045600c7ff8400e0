package risk

import (
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
)

// An offer's snapshot reads the basket from the document (totals, lines
// with their sublines' prices, the customer's agreed terms), the products'
// types and categories, the seller with its limits, and the exposure.
func TestOfferSnapshot(t *testing.T) {
	laptop, cable, software := uuid.New(), uuid.New(), uuid.New()
	eur := func(net, gross int64) pricing.Money { return pricing.Money{Currency: "EUR", Net: net, Gross: gross} }
	d := checkedOut("Kunde GmbH", "DE123456789", "HRB 12345", &offers.Address{Line1: "Weg 1", PostalCode: "10115", CountryCode: "de"})
	d.ShippingAddress = &offers.Address{CountryCode: "at"}
	d.Lines = []offers.Line{
		{ID: "l1", Quantity: 2, ProductID: &laptop, PricingCategory: "hardware", Price: eur(100_000, 119_000),
			Sublines: []offers.Line{{ID: "s1", Quantity: 1, ProductID: &cable, PricingCategory: "accessories", Price: eur(1_000, 1_190)}}},
		{ID: "l2", Quantity: 1, ProductID: &software, PricingCategory: "software", Price: eur(50_000, 59_500)},
	}
	d.Pricing = &offers.Pricing{InsteadOf: eur(252_000, 299_880), Items: []offers.ItemSummary{
		{LineID: "l1", TotalPayNow: offers.PayNowAmount{Amount: eur(202_000, 240_380)}},
		{LineID: "l2", TotalPayNow: offers.PayNowAmount{Amount: eur(50_000, 59_500)}},
	}}
	d.Checkout.Agreement = &offers.Agreement{Lines: []offers.AgreedLine{{LineID: "l1", ContractType: "rent", Duration: 36}, {LineID: "l2", ContractType: "pay_now"}}}
	sellerID, offerID := uuid.New(), uuid.New()
	facts := Facts{
		Products: map[uuid.UUID]dbgen.Product{
			laptop:   {ID: laptop, ProductType: new("hardware"), SellerCategories: []byte(`[{"id":"c1","name":"Laptops"}]`)},
			cable:    {ID: cable, ProductType: new("hardware"), SellerCategories: []byte(`[{"id":"c2","name":"Cables"}]`)},
			software: {ID: software, SellerCategories: []byte(`[]`)},
		},
		Seller:   dbgen.Seller{ID: sellerID, Name: "Shop"},
		Limits:   map[string]int64{"max_offer_net": 1_000_000},
		Exposure: Exposure{OpenNet: 500_000, Offers: 1},
	}
	got, err := OfferSnapshot(offers.Stored{Row: dbgen.Offer{ID: offerID, SalesChannel: "ecommerce"}, Document: d}, facts)
	if err != nil {
		t.Fatal(err)
	}
	want := Snapshot{
		Version: SnapshotVersion,
		Offer: Offer{ID: offerID.String(), TotalNet: 252_000, TotalGross: 299_880, Currency: "EUR", SalesChannel: "ecommerce", ShippingCountry: "AT",
			Categories: []string{"Cables", "Laptops", "accessories", "hardware", "software"},
			Lines: []Line{
				{ProductType: "hardware", PricingCategory: "hardware", Categories: []string{"Laptops"}, Quantity: 2, Net: 202_000, Gross: 240_380, ContractType: "rent", Duration: 36},
				{ProductType: "", PricingCategory: "software", Categories: []string{}, Quantity: 1, Net: 50_000, Gross: 59_500, ContractType: "pay_now"},
			}},
		Customer: Customer{Name: "Kunde GmbH", Country: "DE", HasBillingAddress: true, LegalForm: "de_gmbh", VATNumber: "DE123456789",
			RegistrationNumber: "HRB 12345", CompanyAgeMonths: -1},
		Seller:   Seller{ID: sellerID.String(), Name: "Shop", Limits: map[string]int64{"max_offer_net": 1_000_000}},
		Exposure: Exposure{OpenNet: 500_000, Offers: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("snapshot\n%+v\nwant\n%+v", got, want)
	}
}
