package contract_test

import (
	"crypto/md5"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
	"github.com/tenurehq/tenure/workflows/contract"
)

// dunned is a contract's life with a signed mandate and a collection
// runner, whose bank answers are settle_collection updates.
type dunned struct {
	*life
	runner *collections.Runner
}

// newDunned is a life whose order's customer signed a CORE mandate on 1
// January 2026.
func newDunned(t *testing.T, day string) *dunned {
	l := newLife(t, day, laptops)
	ring := collectiontest.Ring(t)
	var offerID uuid.UUID
	if err := l.f.Store.Pool.QueryRow(t.Context(), `SELECT offer_id FROM orders WHERE id = $1`, l.orderID).Scan(&offerID); err != nil {
		t.Fatal(err)
	}
	collectiontest.Mandate(t, l.f.Store, ring, l.f.SellerID, offerID, date(t, "2026-01-01"), sepa.Core)
	return &dunned{life: l, runner: collectiontest.Runner(t, l.f.Store, ring)}
}

// collectionID is the end-to-end id of an installment's attempt.
func (d *dunned) collectionID(number, attempt int) sepa.EndToEndID {
	sum := md5.Sum([]byte(d.input.ContractID.String() + "/" + strconv.Itoa(number)))
	id, err := sepa.CollectionID(uuid.UUID(sum), attempt)
	if err != nil {
		d.t.Fatal(err)
	}
	return id
}

// bank runs the collection of the day at noon, then answers an attempt of
// an installment: paid (reason "") or returned with a reason.
func (d *dunned) bank(day string, number, attempt int, reason sepa.ReturnReason) *action {
	notice := sepa.Notice{Outcome: sepa.Paid, EndToEndID: d.collectionID(number, attempt), Amount: 7140}
	if reason != "" {
		notice.Outcome, notice.Reason = sepa.Returned, reason
	}
	a := d.send(on(d.t, day), contract.SettleCollection.Update, contract.CollectionRequest{Notice: activities.NoticeOf(notice)})
	a.before = func() {
		run, err := d.runner.Submit(d.t.Context(), date(d.t, day))
		var files []dbgen.CollectionFile
		if err == nil {
			files, err = d.runner.WriteFiles(d.t.Context(), run.ID)
		}
		if err != nil {
			d.t.Errorf("the collection run of %s: %v", day, err)
		}
		for _, f := range files {
			doc, err := d.runner.Bucket.ReadAll(d.t.Context(), f.BlobKey)
			if err != nil {
				d.t.Fatal(err)
			}
			xmllint.Validate(d.t, pain008Schema(d.t), doc)
		}
	}
	return a
}

// charges are the contract's charges by kind.
func (d *dunned) charges() map[contracts.ChargeKind]contracts.Charge {
	out := map[contracts.ChargeKind]contracts.Charge{}
	for _, c := range d.stored().Charges {
		out[c.Kind] = c
	}
	return out
}

// checkLedger checks the ledger's invariants: the installments that fell
// due posted their receivable with their change.
func (d *dunned) checkLedger() {
	d.t.Helper()
	if err := ledger.Check(d.t.Context(), d.f.Store.Queries); err != nil {
		d.t.Errorf("ledger: %v", err)
	}
}

// A returned installment puts the contract in arrears; the reminder
// stages come 7, 14 and 28 days later on its clock, the second adding the
// €40 flat fee; the last defaults the contract (no more installments
// fall due), which waits until an operator writes it off.
func TestArrearsRemindThenDefaultAndAreWrittenOff(t *testing.T) {
	d := newDunned(t, "2026-01-10")
	d.shipped(on(t, "2026-01-10"))
	returned := d.bank("2026-01-12", 1, 1, "AM04")
	writeOff := d.send(on(t, "2026-02-15"), contract.WriteOff.Update)
	early := d.send(on(t, "2026-01-20"), contract.WriteOff.Update)
	d.run()

	var answer contract.CollectionAnswer
	returned.decode(t, &answer)
	if !answer.Changed || !answer.InArrears || answer.Today != date(t, "2026-01-12") {
		t.Errorf("the return answered %+v", answer)
	}
	early.refused(t, "contracts with status=running cannot be written off")
	if got := writeOff.answer(t); got.Status != contracts.WrittenOff || d.result.Status != contracts.WrittenOff {
		t.Errorf("the write-off answered %+v, the workflow ended %s", got, d.result.Status)
	}
	sameKinds(t, d.events(), webhook.ContractStarted, "due×1", webhook.InstallmentFailed, webhook.ContractInArrears,
		webhook.ContractPaymentReminder, webhook.ContractPaymentReminder, webhook.ContractPaymentReminder)
	fee, ok := d.charges()[contracts.ChargeDunningFee]
	if !ok || fee.Amount.Gross != collections.FlatFee || fee.DueDate != date(t, "2026-01-26") {
		t.Errorf("the flat fee: %+v (%v), want 40.00 on the second stage, 26 January", fee, ok)
	}
	// The fixture's customer is a company (a B2B claim): default interest
	// at the base rate plus nine points on the failed installment, from
	// the return to the second stage.
	owed := d.stored().Schedule.Installments[0].Amount.Gross
	interest, ok := d.charges()[contracts.ChargeDefaultInterest]
	if want := collections.DefaultInterest(owed, d.f.Config.Collections.BaseRateBP, date(t, "2026-01-12"), date(t, "2026-01-26")); !ok || want <= 0 || interest.Amount.Gross != want {
		t.Errorf("default interest: %+v (%v), want %d cents", interest, ok, want)
	}
	for _, inst := range d.stored().Schedule.Installments {
		want := contracts.InstallmentScheduled
		if inst.Number == 1 {
			want = contracts.InstallmentWaived
		}
		if inst.Status != want {
			t.Errorf("installment %d is %s, want %s (none fell due once defaulted)", inst.Number, inst.Status, want)
		}
	}
	d.checkLedger()
}

// A representation that is paid clears the arrears before any reminder;
// a later return starts them again from its own day, and an operator
// terminates the defaulted contract, claiming the installments not yet
// due.
func TestArrearsClearWhenPaidAndADefaultedContractIsClaimed(t *testing.T) {
	d := newDunned(t, "2026-01-10")
	d.shipped(on(t, "2026-01-10"))
	d.bank("2026-01-12", 1, 1, "AM04")
	paid := d.bank("2026-01-15", 1, 2, "")
	d.bank("2026-02-12", 2, 1, "MD01")
	claim := d.send(on(t, "2026-03-20"), contract.TerminateAndClaim.Update)
	d.run()

	var answer contract.CollectionAnswer
	paid.decode(t, &answer)
	if !answer.Changed || answer.InArrears {
		t.Errorf("the payment answered %+v, want the arrears cleared", answer)
	}
	if got := claim.answer(t); got.Status != contracts.Terminated {
		t.Errorf("terminate_and_claim answered %+v", got)
	}
	sameKinds(t, d.events(), webhook.ContractStarted, "due×1", webhook.InstallmentFailed, webhook.ContractInArrears, webhook.ContractArrearsCleared,
		"due×1", webhook.InstallmentFailed, webhook.ContractInArrears, webhook.ContractPaymentReminder, webhook.ContractPaymentReminder,
		"due×1", webhook.ContractPaymentReminder, webhook.ContractTerminated)
	charges := d.charges()
	if c := charges[contracts.ChargeClaim]; c.Amount.Gross != 9*7140 || c.DueDate != date(t, "2026-03-20") {
		t.Errorf("the claim: %+v, want the 9 installments not yet due (642.60) on 20 March", c)
	}
	if c := charges[contracts.ChargeDunningFee]; c.DueDate != date(t, "2026-02-26") {
		t.Errorf("the flat fee of the second arrears: %+v, want it on 26 February", c)
	}
	d.checkLedger()
}

// pain008Schema is the vendored official XSD of pain.008.001.08.
func pain008Schema(t testing.TB) string {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "domain", "sepa", "testdata", "pain.008.001.08.xsd")
}
