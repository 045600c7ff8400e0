package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/contract"
)

// `tenure contracts list` filters like GET /v1/contracts across sellers,
// `show` prints a contract's schedule, and `show --json` is the Seller
// API's shape of it; bad flags are named.
func TestContractsCommands(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL)
	f := contracttest.New(t, store, nil)
	laptops := contracttest.Line{Reference: "laptop", Quantity: 2, UnitNet: 120000, MonthlyNet: 3000, Months: 12, Rented: true}

	waiting := f.Confirm(t, f.Order(t, "ref-waiting", laptops))[0]
	shipped := f.Order(t, "ref-running", laptops)
	running := f.Confirm(t, shipped)[0]
	f.Ship(t, shipped, "laptop", "SN-1", "SN-2")
	start, err := civil.ParseDate("2026-01-31")
	if err != nil {
		t.Fatal(err)
	}
	row := contract.Transitions.Must(contracts.AwaitingDelivery, contract.Deliver)
	if _, err := f.Contracts.Start(t.Context(), activities.ContractStart{ContractTransition: activities.ContractTransition{
		ContractID: running, SellerID: f.SellerID, From: row.From, To: row.To, Event: row.Event, Today: start,
	}, On: start}); err != nil {
		t.Fatal(err)
	}

	all := string(tenureCLI(t, env, "contracts", "list", "--seller", f.SellerID.String()))
	if !strings.Contains(all, waiting.String()) || !strings.Contains(all, running.String()) || !strings.Contains(all, "2 of 2 contracts") {
		t.Errorf("the seller's list lacks a contract:\n%s", all)
	}
	onlyRunning := string(tenureCLI(t, env, "contracts", "list", "--status", "running", "--seller", f.SellerID.String()))
	if strings.Contains(onlyRunning, waiting.String()) || !strings.Contains(onlyRunning, running.String()) ||
		!strings.Contains(onlyRunning, "2026-01-31") || !strings.Contains(onlyRunning, "2027-01-30") {
		t.Errorf("--status running lists:\n%s", onlyRunning)
	}
	if every := string(tenureCLI(t, env, "contracts", "list", "--ending-before", "2027-02-01", "--limit", "100")); !strings.Contains(every, running.String()) || strings.Contains(every, waiting.String()) {
		t.Errorf("every seller's contracts ending before 1 February 2027:\n%s", every)
	}

	shown := string(tenureCLI(t, env, "contracts", "show", running.String()))
	for _, want := range []string{
		"contract " + running.String() + " is running",
		"term 2026-01-31 to 2027-01-30",
		`serial SN-1: shipped`,
		// Two laptops at 30.00 net a month, taxed at 19 %.
		"1   2026-01-31  2026-01-31  2026-02-27  60.00  71.40  scheduled",
		"12  2026-12-31  2026-12-31  2027-01-30  60.00  71.40  scheduled",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("show lacks %q:\n%s", want, shown)
		}
	}
	if w := string(tenureCLI(t, env, "contracts", "show", waiting.String())); !strings.Contains(w, "waits for the shipment") {
		t.Errorf("a contract awaiting delivery shows:\n%s", w)
	}
	var api contracts.Stored
	if err := json.Unmarshal(tenureCLI(t, env, "contracts", "show", running.String(), "--json"), &api); err != nil {
		t.Fatal(err)
	}
	if api.ID != running || api.Status != contracts.Running || api.Schedule == nil || len(api.Schedule.Installments) != 12 {
		t.Errorf("show --json: %+v", api)
	}

	for args, want := range map[string]string{
		"list --status sleeping":       `--status must be one of awaiting_delivery, running`,
		"list --limit 0":               "--limit must be between 1 and 100, got 0",
		"list --seller nope":           `--seller "nope" is not a seller id`,
		"list --ending-before 31.1.27": `--ending-before "31.1.27" is not a day (YYYY-MM-DD)`,
		"show nope":                    `"nope" is not a contract id`,
		"show " + f.SellerID.String():  "no contract " + f.SellerID.String(),
		"list --order 12345":           `--order "12345" is not an order id`,
	} {
		out, err := tenureCLIFails(t, env, append([]string{"contracts"}, strings.Fields(args)...)...)
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("tenure contracts %s: %v\n%s\nwant %q", args, err, out, want)
		}
	}
}

// `tenure sellers set-residual` sets the residual value a seller's
// buy-outs are priced at, exactly in basis points, or falls back to the
// deployment's; bad percentages change nothing.
func TestSellersSetResidual(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL)
	f := contracttest.New(t, store, nil)
	residual := func() *int64 {
		t.Helper()
		var bp *int64
		if err := store.Pool.QueryRow(t.Context(), "SELECT contract_residual_basis_points FROM sellers WHERE id = $1", f.SellerID).Scan(&bp); err != nil {
			t.Fatal(err)
		}
		return bp
	}
	seller := f.SellerID.String()
	if out := string(tenureCLI(t, env, "sellers", "set-residual", seller, "--percent", "12.5")); !strings.Contains(out, "buy-outs at 12.50 % of the net purchase price") {
		t.Errorf("set-residual printed %q", out)
	}
	if bp := residual(); bp == nil || *bp != 1250 {
		t.Errorf("12.5 %% stored as %v basis points, want 1250", bp)
	}
	for args, want := range map[string]string{
		"--percent 100.01":       `--percent "100.01" is not a percentage from 0 to 100`,
		"--percent 12.345":       `--percent "12.345" is not a percentage`,
		"--percent -1":           `--percent "-1" is not a percentage`,
		"--percent abc":          `--percent "abc" is not a percentage`,
		"--percent 10 --default": "give exactly one of --percent and --default",
		"":                       "give exactly one of --percent and --default",
	} {
		out, err := tenureCLIFails(t, env, append([]string{"sellers", "set-residual", seller}, strings.Fields(args)...)...)
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("set-residual %s: %v\n%s\nwant %q", args, err, out, want)
		}
	}
	if out, err := tenureCLIFails(t, env, "sellers", "set-residual", "01a21593-3769-7dbf-bd6e-47bb09ef6eca", "--percent", "5"); err == nil || !strings.Contains(out, "no seller 01a21593-3769-7dbf-bd6e-47bb09ef6eca") {
		t.Errorf("an unknown seller: %v\n%s", err, out)
	}
	if bp := residual(); bp == nil || *bp != 1250 {
		t.Errorf("refused changes changed the residual value to %v", bp)
	}
	if out := string(tenureCLI(t, env, "sellers", "set-residual", seller, "--default")); !strings.Contains(out, "the deployment's residual value, 10.00 %") {
		t.Errorf("set-residual --default printed %q", out)
	}
	if bp := residual(); bp != nil {
		t.Errorf("--default left %d basis points", *bp)
	}
}
