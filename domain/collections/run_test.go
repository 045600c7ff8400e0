package collections_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/sepa"
)

// A run asks for the first TARGET business day after the scheme's lead
// time (and the bank's own days), over weekends and holidays.
func TestTheCollectionDateIsABusinessDayAfterTheLeadTime(t *testing.T) {
	for _, tc := range []struct {
		run      string
		bankDays int
		want     string
	}{
		{"2026-11-26", 0, "2026-11-27"}, // Thursday: Friday
		{"2026-11-27", 0, "2026-11-30"}, // Friday: over the weekend
		{"2026-11-28", 0, "2026-12-01"}, // Saturday: worked on Monday, collected Tuesday
		{"2026-12-24", 0, "2026-12-28"}, // over Christmas Day and Boxing Day (TARGET closed)
		{"2026-11-26", 1, "2026-11-30"}, // a bank that wants a day more
	} {
		if got := collections.CollectionDateOf(day(t, tc.run), tc.bankDays); got != day(t, tc.want) {
			t.Errorf("run on %s with %d bank days: collection date %s, want %s", tc.run, tc.bankDays, got, tc.want)
		}
	}
}

// Each owed installment with a signed mandate is collected once, in one
// file per scheme, as its mandate's first collection; a repeated run
// collects nothing again and writes the same files.
func TestARunCollectsEachOwedInstallmentOnce(t *testing.T) {
	e := newEnv(t)
	core := e.newContract(t, day(t, "2026-11-01"), sepa.Core)
	e.installment(t, core, 1, day(t, "2026-11-01"), 11900, "due")
	e.installment(t, core, 2, day(t, "2026-12-01"), 11900, "scheduled")
	b2b := e.newContract(t, day(t, "2026-11-01"), sepa.B2B)
	e.installment(t, b2b, 1, day(t, "2026-11-27"), 23800, "due")
	e.installment(t, b2b, 2, day(t, "2026-11-28"), 23800, "due") // due after the collection date: the next run's
	late := e.newContract(t, day(t, "2026-12-15"), sepa.Core)    // signed after the collection date
	e.installment(t, late, 1, day(t, "2026-11-01"), 11900, "due")

	run, docs := e.run(t, day(t, "2026-11-26"))
	if run.Submitted != 2 || run.CollectionDate != day(t, "2026-11-27") || len(docs) != 2 {
		t.Fatalf("run: %+v with %d files, want 2 items on 2026-11-27 in 2 files (CORE, B2B)", run, len(docs))
	}
	for _, c := range []contract{core, b2b} {
		items := e.items(t, c)
		if len(items) != 1 || items[0].number != 1 || items[0].sequence != "FRST" || items[0].status != "submitted" || items[0].attempt != 1 {
			t.Errorf("contract %s: items %+v, want installment 1 submitted as FRST", c.id, items)
		}
	}
	if items := e.items(t, late); len(items) != 0 {
		t.Errorf("a mandate signed after the collection date: items %+v", items)
	}
	joined := string(bytes.Join(docs, nil))
	for _, want := range []string{
		"<Cd>CORE</Cd>", "<Cd>B2B</Cd>", "<SeqTp>FRST</SeqTp>", "<ReqdColltnDt>2026-11-27</ReqdColltnDt>",
		`<InstdAmt Ccy="EUR">119.00</InstdAmt>`, `<InstdAmt Ccy="EUR">238.00</InstdAmt>`, "<CtrlSum>119.00</CtrlSum>",
		"<MndtId>" + string(sepa.MandateReferenceFor(core.mandate)) + "</MndtId>", "<DtOfSgntr>2026-11-01</DtOfSgntr>",
		"<IBAN>DE89370400440532013000</IBAN>", "<Id>DE98ZZZ09999999999</Id>",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("the files lack %s", want)
		}
	}

	again, docsAgain := e.run(t, day(t, "2026-11-26"))
	if again.Submitted != 0 || again.ID != run.ID || len(e.items(t, core)) != 1 || len(e.items(t, b2b)) != 1 {
		t.Errorf("a repeated run submitted %d items (%+v), want none", again.Submitted, again)
	}
	if len(docsAgain) != len(docs) || !slices.EqualFunc(docs, docsAgain, bytes.Equal) {
		t.Error("a repeated run wrote other files")
	}
	files, err := e.store.ListCollectionFiles(t.Context(), 10)
	if err != nil || len(files) != 2 {
		t.Fatalf("files: %d, %v; want 2", len(files), err)
	}
	var total int64
	for _, f := range files {
		total += f.CtrlSum
		if f.NbOfTxs != 1 {
			t.Errorf("file %s: NbOfTxs %d", f.MessageID, f.NbOfTxs)
		}
	}
	if total != 11900+23800 {
		t.Errorf("the files' control sums add up to %d", total)
	}
}

// A paid collection settles its installment, a returned one makes it
// failed with its reason; importing the same file again changes nothing.
// A return for insufficient funds is collected again (its mandate still
// first, as nothing was collected under it), a closed account is not;
// a mandate collected before goes RCUR.
func TestReturnsSettleAndRetryByTheirReason(t *testing.T) {
	e := newEnv(t)
	payer := e.newContract(t, day(t, "2026-11-01"), sepa.Core)
	e.installment(t, payer, 1, day(t, "2026-11-01"), 11900, "due")
	short := e.newContract(t, day(t, "2026-11-01"), sepa.Core)
	e.installment(t, short, 1, day(t, "2026-11-01"), 5950, "due")
	e.run(t, day(t, "2026-11-26"))
	first := notification(
		notice{e2e: e.items(t, payer)[0].e2e, cents: 11900},
		notice{e2e: e.items(t, short)[0].e2e, cents: 5950, reason: "AM04"},
		notice{e2e: "SOMEONE-ELSES-1", cents: 100},
	)
	got, err := e.runner.ImportNotifications(t.Context(), first, e.runner.ApplyOwn)
	if err != nil || got != (collections.Imported{Paid: 1, Returned: 1, Unknown: 1}) {
		t.Fatalf("import: %+v, %v", got, err)
	}
	first.Seek(0, 0)
	if got, err := e.runner.ImportNotifications(t.Context(), first, e.runner.ApplyOwn); err != nil || got != (collections.Imported{Unchanged: 2, Unknown: 1}) {
		t.Errorf("the second import: %+v, %v; want nothing changed", got, err)
	}
	if s := e.installmentStatus(t, payer, 1); s != "paid" {
		t.Errorf("the paid installment is %s", s)
	}
	if s := e.installmentStatus(t, short, 1); s != "failed" {
		t.Errorf("the returned installment is %s", s)
	}
	if items := e.items(t, short); items[0].status != "returned" || items[0].reason != "AM04" {
		t.Errorf("the returned item: %+v", items[0])
	}
	e.checkLedger(t)

	e.installment(t, payer, 2, day(t, "2026-11-30"), 11900, "due")
	e.run(t, day(t, "2026-11-27"))
	if items := e.items(t, payer); len(items) != 2 || items[1].sequence != "RCUR" || items[1].number != 2 {
		t.Errorf("the second installment of a collected mandate: %+v, want RCUR", items)
	}
	items := e.items(t, short)
	if len(items) != 2 || items[1].attempt != 2 || items[1].sequence != "FRST" || items[1].number != 1 {
		t.Fatalf("a return for insufficient funds: items %+v, want attempt 2 as FRST", items)
	}
	if _, err := e.runner.ImportNotifications(t.Context(), notification(notice{e2e: items[1].e2e, cents: 5950, reason: "AC04"}), e.runner.ApplyOwn); err != nil {
		t.Fatal(err)
	}
	run, _ := e.run(t, day(t, "2026-11-30"))
	if run.Submitted != 0 || len(e.items(t, short)) != 2 {
		t.Errorf("a closed account was collected again: %d submitted", run.Submitted)
	}
	// A paid collection the debtor's bank later returns (the Core refund
	// right) is owed again.
	if _, err := e.runner.ImportNotifications(t.Context(), notification(notice{e2e: e.items(t, payer)[0].e2e, cents: 11900, reason: "MD06"}), e.runner.ApplyOwn); err != nil {
		t.Fatal(err)
	}
	if s := e.installmentStatus(t, payer, 1); s != "failed" {
		t.Errorf("a refunded installment is %s, want failed", s)
	}
	e.checkLedger(t)
}
