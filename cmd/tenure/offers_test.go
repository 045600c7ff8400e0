package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
	"github.com/tenurehq/tenure/workflows/offer"
)

// In production, the risk rules decide an offer under review, or leave it
// to an operator, who decides with `tenure offers decide`.
func TestProductionRiskReviewAndOperatorDecisions(t *testing.T) {
	cfg := testenv.Config(t)
	cfg.Environment = config.Production
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	namespace := testenv.Namespace(t)
	tc := testenv.ClientFor(t, namespace)
	testenv.Worker(t, cfg, store, tc)

	seller, err := auth.CreateSeller(t.Context(), store, "Production Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	sellerID := seller.Seller.ID
	serverCatalog(t, store, cfg, sellerID)
	engine, err := cfg.Pricing.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	service := services.NewOffers(cfg, store, tc, engine)

	// submit creates an offer of quantity units of the server and submits
	// it for review, as the customer's checkout does.
	submit := func(reference string, quantity int64, country string) uuid.UUID {
		t.Helper()
		name := "Customer GmbH"
		o, err := service.Create(t.Context(), sellerID, offers.Request{
			Reference: reference, SalesChannel: "telesales", ExpiresAt: time.Now().Add(time.Hour),
			Customer:        &offers.Customer{Company: &offers.Company{Name: &name}},
			ShippingAddress: &offers.Address{City: "X", CountryCode: country, Line1: "Y", PostalCode: "1"},
			Lines: []offers.LineRequest{{
				Title: "Server", Quantity: quantity, Product: catalog.Reference{Source: "sku", Reference: "server"},
				Price: offers.PriceRequest{Currency: "EUR", Net: 500000},
			}},
		}, offers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		id := o.Row.ID
		if err := service.Change(t.Context(), sellerID, id, offer.SubmitForReview); err != nil {
			t.Fatal(err)
		}
		return id
	}
	await := func(id uuid.UUID, want string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			o, err := service.Get(t.Context(), sellerID, id)
			if err != nil {
				t.Fatal(err)
			}
			if o.Row.Status == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("offer %s is %s, want %s", id, o.Row.Status, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	small := submit("small", 1, "DE")         // 5,950.00 gross: accepted by the rules
	large := submit("large", 6, "DE")         // 35,700.00: an operator decides
	refused := submit("refused", 5, "DE")     // 29,750.00: an operator decides
	abroad := submit("abroad", 1, "US")       // not served: declined by the rules
	tooLarge := submit("too-large", 50, "AT") // above the maximum: declined
	await(small, "accepted")
	await(abroad, "declined")
	await(tooLarge, "declined")
	time.Sleep(500 * time.Millisecond)
	await(large, "pending_review")
	await(refused, "pending_review")

	env := append(os.Environ(),
		"TENURE_DATABASE_URL="+databaseURL,
		"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
		"TENURE_TEMPORAL_NAMESPACE="+namespace,
		"TENURE_ENVIRONMENT=production",
	)
	if out := string(tenureCLI(t, env, "offers", "decide", large.String(), "--accept")); !strings.Contains(out, "is accepted") {
		t.Errorf("decide --accept printed %q", out)
	}
	if out := string(tenureCLI(t, env, "offers", "decide", refused.String(), "--decline")); !strings.Contains(out, "is declined") {
		t.Errorf("decide --decline printed %q", out)
	}
	await(large, "accepted")
	await(refused, "declined")
	if _, err := store.GetOrderByOffer(t.Context(), dbgen.GetOrderByOfferParams{SellerID: sellerID, OfferID: large}); err != nil {
		t.Errorf("the operator's acceptance created no order: %v", err)
	}
	out, err := tenureCLIFails(t, env, "offers", "decide", small.String(), "--decline")
	if err == nil || !strings.Contains(out, "offers with status=accepted cannot be declined") {
		t.Errorf("deciding a decided offer: %v %s", err, out)
	}

	// An offer whose workflow no worker runs: the decision gives up after
	// --wait, naming where it waited.
	stuck := submit("stuck", 6, "DE")
	await(stuck, "pending_review")
	idle := testenv.Namespace(t)
	_, err = testenv.ClientFor(t, idle).ExecuteWorkflow(t.Context(), client.StartWorkflowOptions{ID: offer.WorkflowID(stuck), TaskQueue: offer.TaskQueue},
		offer.Offer, offer.Input{OfferID: stuck, SellerID: sellerID, Review: offers.ReviewByRules, Revision: offer.Revision})
	if err != nil {
		t.Fatal(err)
	}
	idleEnv := append(env, "TENURE_TEMPORAL_NAMESPACE="+idle)
	out, err = tenureCLIFails(t, idleEnv, "offers", "decide", stuck.String(), "--accept", "--wait", "2s")
	for _, want := range []string{"gave up after 2s waiting for workflow " + offer.WorkflowID(stuck), `namespace "` + idle + `"`,
		`task queue "offers"`, "no worker polls that task queue", "read the offer before deciding again"} {
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("deciding without a worker: %v; the output lacks %q:\n%s", err, want, out)
		}
	}
}

// serverCatalog imports a server, which the sandbox and the production
// rules both support.
func serverCatalog(t *testing.T, store *db.Store, cfg *config.Config, sellerID uuid.UUID) {
	t.Helper()
	testenv.Catalog(t, store, cfg, sellerID, "EUR", serverProduct())
}

// serverProduct is the server as the catalog imports it: 5,000.00 EUR net,
// sku "server".
func serverProduct() catalog.ProductInput {
	return catalog.ProductInput{
		Title: "Server", Type: "hardware", IsActive: true,
		Price:      catalog.Money{Currency: "EUR", Net: 500000, Gross: 595000},
		References: []catalog.Reference{{Source: "sku", Reference: "server"}},
	}
}
