package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// A seller created in production accepts without a payment method, one
// created in the sandbox requires it; `tenure sellers
// set-payment-method-required` turns it on and off, `show` prints it, and
// bad arguments change nothing.
func TestSellersSetPaymentMethodRequired(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL, "TENURE_ENVIRONMENT=production")
	required := func(seller string) bool {
		t.Helper()
		var on bool
		if err := store.Pool.QueryRow(t.Context(), "SELECT payment_method_required FROM sellers WHERE id = $1", seller).Scan(&on); err != nil {
			t.Fatal(err)
		}
		return on
	}
	var created sellerCredentialsOutput
	if err := json.Unmarshal(tenureCLI(t, env, "sellers", "create", "--name", "Production Shop", "--json"), &created); err != nil {
		t.Fatal(err)
	}
	seller := created.SellerID
	if required(seller) {
		t.Error("a seller created in production requires a payment method")
	}
	if out := string(tenureCLI(t, env, "sellers", "set-payment-method-required", seller, "on")); !strings.Contains(out, "customers give a SEPA direct-debit mandate") {
		t.Errorf("on printed %q", out)
	}
	if !required(seller) {
		t.Error("on did not require a payment method")
	}
	var shown profileOutput
	if err := json.Unmarshal(tenureCLI(t, env, "sellers", "show", seller, "--json"), &shown); err != nil || !shown.PaymentMethodRequired {
		t.Errorf("show --json: %+v (%v)", shown, err)
	}
	if out := string(tenureCLI(t, env, "sellers", "show", seller)); !strings.Contains(out, "payment method required  on") {
		t.Errorf("show prints:\n%s", out)
	}
	for _, args := range [][]string{{seller, "yes"}, {"01a21593-3769-7dbf-bd6e-47bb09ef6eca", "off"}, {"not-an-id", "off"}} {
		out, err := tenureCLIFails(t, env, append([]string{"sellers", "set-payment-method-required"}, args...)...)
		if err == nil || !(strings.Contains(out, `on or off, got "yes"`) || strings.Contains(out, "no seller 01a21593") || strings.Contains(out, "is not a seller id")) {
			t.Errorf("set-payment-method-required %v: %v\n%s", args, err, out)
		}
	}
	if !required(seller) {
		t.Error("a refused change turned the requirement off")
	}
	if out := string(tenureCLI(t, env, "sellers", "set-payment-method-required", seller, "off")); !strings.Contains(out, "accept without a payment method") || required(seller) {
		t.Errorf("off printed %q, required %v", out, required(seller))
	}

	cfg := testenv.Config(t)
	cfg.Environment = config.Sandbox
	sandbox, err := createSeller(t.Context(), cfg, store, "Sandbox Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	if !sandbox.Seller.PaymentMethodRequired || !required(sandbox.Seller.ID.String()) {
		t.Error("a seller created in the sandbox does not require a payment method")
	}
}
