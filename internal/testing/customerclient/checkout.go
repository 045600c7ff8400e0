// Package customerclient is an end customer checking out through the
// Customer-Facing API, as the hosted checkout does: it exchanges the
// checkout link's shared token, chooses terms and services, gives the
// company's data and a shipping address, and accepts. The end-to-end tests
// and the cluster test drive offers with it.
package customerclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Offer is the part of the customer's view of an offer a checkout reads.
type Offer struct {
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	UpdatedAt time.Time `json:"updated_at"`
	// PaymentMethodRequired: the seller requires a SEPA mandate.
	PaymentMethodRequired bool `json:"payment_method_required"`
	Lines                 []struct {
		ID    string `json:"id"`
		Terms []struct {
			ID string `json:"id"`
		} `json:"contract_terms_list"`
		Services []struct {
			ID string `json:"id"`
		} `json:"available_first_party_services"`
	} `json:"lines"`
}

// Customer is one end customer holding an offer's checkout link.
type Customer struct {
	httpClient *http.Client
	baseURL    string
	offerID    string
	shared     string
	bearer     string
	// company replaces EndCustomer when set (AsCompany).
	company map[string]any
}

// Open reads an offer's checkout link (…/checkout/offers/{id}?token=…);
// the customer calls the API at apiURL (the link's host is the
// deployment's public address, which a test's API may not listen on).
func Open(httpClient *http.Client, apiURL, checkoutURL string) (*Customer, error) {
	u, err := url.Parse(checkoutURL)
	if err != nil {
		return nil, err
	}
	id, ok := strings.CutPrefix(u.Path, "/checkout/offers/")
	if !ok || u.Query().Get("token") == "" {
		return nil, fmt.Errorf("%s is not a checkout link", checkoutURL)
	}
	return &Customer{httpClient: httpClient, baseURL: apiURL, offerID: id, shared: u.Query().Get("token")}, nil
}

// OfferID is the id of the customer's offer.
func (c *Customer) OfferID() string { return c.offerID }

// Choice is how the customer takes every line: rented over Months with
// every service it offers, or paid now when Months is 0 (or the line
// cannot be rented over Months).
type Choice struct {
	Months   int
	Services bool
	// DiscountCode is applied when accepting, if set.
	DiscountCode string
}

// Checkout exchanges the shared token, chooses, gives the customer's data,
// a shipping address and a payment method when the seller requires one,
// and accepts: the offer is then pending_review.
func (c *Customer) Checkout(ctx context.Context, choice Choice) (Offer, error) {
	at, err := c.Prepare(ctx, choice)
	if err != nil {
		return Offer{}, err
	}
	return c.Accept(ctx, at, choice.DiscountCode)
}

// Show reads the offer as its customer sees it (after Exchange).
func (c *Customer) Show(ctx context.Context) (Offer, error) {
	var o Offer
	err := c.call(ctx, http.MethodGet, "", nil, &o)
	return o, err
}

// Accept accepts the offer as last read at updatedAt.
func (c *Customer) Accept(ctx context.Context, updatedAt time.Time, discountCode string) (Offer, error) {
	body := map[string]any{"last_updated_at": updatedAt.Format(time.RFC3339Nano)}
	if discountCode != "" {
		body["discount_code"] = discountCode
	}
	var o Offer
	err := c.call(ctx, http.MethodPut, "/accept", body, &o)
	return o, err
}

// Prepare does everything of Checkout but accepting, and answers the
// offer's updated_at to accept it with.
func (c *Customer) Prepare(ctx context.Context, choice Choice) (time.Time, error) {
	if err := c.Exchange(ctx); err != nil {
		return time.Time{}, err
	}
	o, err := c.Show(ctx)
	if err != nil {
		return time.Time{}, err
	}
	steps := []checkoutStep{{"/customize-terms-services", choicesFor(o, choice)}, {"/end-customer-info", c.endCustomer()}, {"/update-shipping-address", ShippingAddress}}
	if o.PaymentMethodRequired {
		steps = append(steps, checkoutStep{"/payment-method", PaymentMethod})
	}
	for _, step := range steps {
		if err := c.call(ctx, http.MethodPut, step.path, step.body, nil); err != nil {
			return time.Time{}, err
		}
	}
	o, err = c.Show(ctx)
	return o.UpdatedAt, err
}

// checkoutStep is a change the customer sends before accepting.
type checkoutStep struct {
	path string
	body any
}

// EndCustomer is a German GmbH and its buyer, complete for acceptance.
var EndCustomer = map[string]any{
	"end_customer": map[string]any{
		"type": "de_gmbh", "name": "Kunde GmbH", "company_registration_number": "HRB 12345", "vat_number": "DE123456789",
		"billing_address": map[string]any{"line1": "Invalidenstr. 1", "postal_code": "10115", "city": "Berlin", "country_code": "DE"},
	},
	"end_user": map[string]any{"first_name": "Berta", "last_name": "Kunde", "phone_country_code": "DE", "phone_national_number": "030 1234567"},
}

// AsCompany makes the customer check out for another company than
// EndCustomer's: the same buyer and address, with this name, VAT id and
// registration number.
func (c *Customer) AsCompany(name, vat, registration string) {
	company := maps.Clone(EndCustomer["end_customer"].(map[string]any))
	company["name"], company["vat_number"], company["company_registration_number"] = name, vat, registration
	c.company = map[string]any{"end_customer": company, "end_user": EndCustomer["end_user"]}
}

// endCustomer is what the customer tells of themselves at checkout.
func (c *Customer) endCustomer() map[string]any {
	if c.company != nil {
		return c.company
	}
	return EndCustomer
}

// PaymentMethod is the customer's SEPA direct debit mandate, given when
// the seller requires one.
var PaymentMethod = map[string]any{"type": "sepa_direct_debit", "iban": "DE89 3704 0044 0532 0130 00", "account_holder": "Kunde GmbH", "mandate_accepted": true}

// ShippingAddress is where the customer's goods go.
var ShippingAddress = map[string]any{"line1": "Lagerweg 2", "postal_code": "20095", "city": "Hamburg", "country_code": "DE", "recipient_name": "Wareneingang"}

// choicesFor chooses per line as choice says, where the line allows it.
func choicesFor(o Offer, choice Choice) map[string]any {
	var lines []map[string]any
	for _, l := range o.Lines {
		term := l.ID + "-pay-now"
		rent := l.ID + "-rent-" + strconv.Itoa(choice.Months)
		for _, t := range l.Terms {
			if t.ID == rent {
				term = rent
			}
		}
		services := []string{}
		if term == rent && choice.Services {
			for _, s := range l.Services {
				services = append(services, s.ID)
			}
		}
		lines = append(lines, map[string]any{"offer_line_id": l.ID, "selected_contract_terms_id": term, "selected_services": services})
	}
	return map[string]any{"lines": lines}
}

// Exchange trades the link's shared token for a bearer token of the offer.
func (c *Customer) Exchange(ctx context.Context) error {
	form := url.Values{
		"grant_type":         {"urn:ietf:params:oauth:grant-type:token-exchange"},
		"subject_token":      {c.shared},
		"subject_token_type": {"urn:tenure:params:oauth:token-type:offer-link"},
		"audience":           {c.offerID},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := c.send(req, &tok); err != nil {
		return fmt.Errorf("token exchange: %w", err)
	}
	c.bearer = tok.AccessToken
	return nil
}

// call sends a bearer request to the offer's path (suffix after
// /customer/offers/{id}) and decodes a 200 answer into out.
func (c *Customer) call(ctx context.Context, method, suffix string, body, out any) error {
	var reader io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+"/customer/offers/"+c.offerID+suffix, reader)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+c.bearer)
	if err := c.send(req, out); err != nil {
		return fmt.Errorf("%s %s: %w", method, req.URL.Path, err)
	}
	return nil
}

// Refused is an answer other than 200.
type Refused struct {
	Status int
	Body   string
}

func (r *Refused) Error() string { return fmt.Sprintf("answered %d: %s", r.Status, r.Body) }

func (c *Customer) send(req *http.Request, out any) error {
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return &Refused{Status: resp.StatusCode, Body: string(raw)}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}
