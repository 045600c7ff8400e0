package main

import (
	"os"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// `tenure payouts run` skips a seller without a payout account, pays it
// once `tenure sellers set-payout-account` set one, and pays nothing the
// second time; a wrong IBAN is refused and changes nothing.
func TestPayoutsRunAndPayoutAccount(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL)
	f := contracttest.New(t, store, nil)
	orderID := f.Order(t, "cli-payout", contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 100000, MonthlyNet: 3000, Months: 12, Rented: true})
	f.Confirm(t, orderID)
	f.Ship(t, orderID, "laptop", "CLI-1")
	seller := f.SellerID.String()

	if out := string(tenureCLI(t, env, "payouts", "run", "--date", "2026-11-26")); !strings.Contains(out, "nothing to pay") || !strings.Contains(out, "skipped 1 owed payouts") {
		t.Errorf("without an account: %s", out)
	}
	if out, err := tenureCLIFails(t, env, "sellers", "set-payout-account", seller, "DE00370400440532013000"); err == nil || !strings.Contains(out, "IBAN") {
		t.Errorf("a wrong IBAN: %v %s", err, out)
	}
	if out := string(tenureCLI(t, env, "sellers", "set-payout-account", seller, "DE89370400440532013000", "COBADEFFXXX")); !strings.Contains(out, "payouts to DE89 ****") {
		t.Errorf("set-payout-account: %s", out)
	}
	if out := string(tenureCLI(t, env, "payouts", "run", "--date", "2026-11-26")); !strings.Contains(out, "tenure: file ") || !strings.Contains(out, "1 payouts, 1000.00 EUR") {
		t.Errorf("the batch: %s", out)
	}
	if out := string(tenureCLI(t, env, "payouts", "run", "--date", "2026-11-27")); !strings.Contains(out, "nothing to pay") {
		t.Errorf("a second batch: %s", out)
	}
}
