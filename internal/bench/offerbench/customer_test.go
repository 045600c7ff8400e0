package offerbench_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/customerclient"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
)

// customers creates n offers and opens each one's checkout link as its
// customer.
func (s *stack) customers(b *testing.B, prefix string, n int) []*customerclient.Customer {
	b.Helper()
	out := make([]*customerclient.Customer, n)
	httpClient := &http.Client{Timeout: 30 * time.Second}
	for i := range n {
		var o struct {
			CheckoutURL string `json:"checkout_redirect_url"`
		}
		status, body, err := s.client.Do(context.Background(), http.MethodPost, "/v1/offers",
			sellerclient.OfferPayload(fmt.Sprintf("%s-%d", prefix, i), s.product, 1), &o)
		if err != nil || status != http.StatusCreated {
			b.Fatalf("create offer: %d %s %v", status, body, err)
		}
		if out[i], err = customerclient.Open(httpClient, s.apiURL, o.CheckoutURL); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// withoutAddressLimit lifts the per-address budget of the routes callable
// without a token: the token exchange of one benchmark client would use
// it up at once.
func withoutAddressLimit(c *config.Config) {
	c.RateLimit.Address = config.BucketConfig{PerSecond: 1_000_000, Burst: 1_000_000}
}

// BenchmarkCustomerGetOffer reads 100 offers as their customers see them
// (GET /customer/offers/{id}, priced with the customer's choices) at a
// fixed 500 requests per second for 10 s.
func BenchmarkCustomerGetOffer(b *testing.B) {
	s := newStack(b, withoutAddressLimit)
	customers := s.customers(b, "show", 100)
	for _, c := range customers {
		if err := c.Exchange(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	measureAt(b, "GET /customer/offers/{id} at a 500/s arrival rate", "reads", 500, 10*time.Second, func(i int) error {
		_, err := customers[i%len(customers)].Show(context.Background())
		return err
	})
}

// BenchmarkTokenExchange exchanges offers' shared tokens for bearer tokens
// at a fixed 200 per second for 10 s.
func BenchmarkTokenExchange(b *testing.B) {
	s := newStack(b, withoutAddressLimit)
	customers := s.customers(b, "exchange", 100)
	measureAt(b, "token exchanges at a 200/s arrival rate", "exchanges", 200, 10*time.Second, func(i int) error {
		return customers[i%len(customers)].Exchange(context.Background())
	})
}

// BenchmarkAcceptToPendingReview accepts 300 prepared offers (terms
// chosen, data and shipping address given) at a fixed 20 per second: each
// acceptance answers once the offer's workflow has stored pending_review.
func BenchmarkAcceptToPendingReview(b *testing.B) {
	s := newStack(b, withoutAddressLimit)
	const rate, seconds = 20, 15
	customers := s.customers(b, "accept", rate*seconds)
	prepared := make([]time.Time, len(customers))
	for i, c := range customers {
		var err error
		if prepared[i], err = c.Prepare(context.Background(), customerclient.Choice{Months: 24, Services: true}); err != nil {
			b.Fatal(err)
		}
	}
	measureAt(b, "acceptances to pending_review at a 20/s arrival rate", "acceptances", rate, seconds*time.Second, func(i int) error {
		o, err := customers[i].Accept(context.Background(), prepared[i], "")
		if err == nil && o.Status != "pending_review" {
			err = fmt.Errorf("accepted offer is %s", o.Status)
		}
		return err
	})
}
