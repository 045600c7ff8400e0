package sepa

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
)

// amountOf reads an ISO 20022 amount back into cents.
func amountOf(t testing.TB, s string) int64 {
	t.Helper()
	whole, frac, found := strings.Cut(s, ".")
	if !found || len(frac) != 2 {
		t.Fatalf("amount %q does not have two decimals", s)
	}
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("amount %q", s)
	}
	return w*100 + f
}

// pain008Document is what the tests read back from a pain.008 file.
type pain008Document struct {
	XMLName xml.Name `xml:"urn:iso:std:iso:20022:tech:xsd:pain.008.001.08 Document"`
	Header  struct {
		MsgID     string `xml:"MsgId"`
		CreDtTm   string
		NbOfTxs   int
		CtrlSum   string
		Initiator string `xml:"InitgPty>Nm"`
	} `xml:"CstmrDrctDbtInitn>GrpHdr"`
	Blocks []struct {
		ID           string `xml:"PmtInfId"`
		Method       string `xml:"PmtMtd"`
		BatchBooking string `xml:"BtchBookg"`
		NbOfTxs      int
		CtrlSum      string
		Service      string `xml:"PmtTpInf>SvcLvl>Cd"`
		Instrument   string `xml:"PmtTpInf>LclInstrm>Cd"`
		Sequence     string `xml:"PmtTpInf>SeqTp"`
		Date         string `xml:"ReqdColltnDt"`
		Creditor     string `xml:"Cdtr>Nm"`
		CreditorIBAN string `xml:"CdtrAcct>Id>IBAN"`
		CreditorBIC  string `xml:"CdtrAgt>FinInstnId>BICFI"`
		ChargeBearer string `xml:"ChrgBr"`
		CreditorID   string `xml:"CdtrSchmeId>Id>PrvtId>Othr>Id"`
		SchemeName   string `xml:"CdtrSchmeId>Id>PrvtId>Othr>SchmeNm>Prtry"`
		Debits       []struct {
			EndToEndID string        `xml:"PmtId>EndToEndId"`
			Amount     amountElement `xml:"InstdAmt"`
			Mandate    string        `xml:"DrctDbtTx>MndtRltdInf>MndtId"`
			Signed     string        `xml:"DrctDbtTx>MndtRltdInf>DtOfSgntr"`
			DebtorBIC  string        `xml:"DbtrAgt>FinInstnId>BICFI"`
			NoBIC      string        `xml:"DbtrAgt>FinInstnId>Othr>Id"`
			Debtor     string        `xml:"Dbtr>Nm"`
			DebtorIBAN string        `xml:"DbtrAcct>Id>IBAN"`
			Remittance string        `xml:"RmtInf>Ustrd"`
		} `xml:"DrctDbtTxInf"`
	} `xml:"CstmrDrctDbtInitn>PmtInf"`
}

// testDebits are a small run: first and recurring collections on two
// dates, with and without a BIC and a remittance text.
func testDebits(t testing.TB) []DirectDebit {
	signed := day(t, "2026-10-15")
	return []DirectDebit{
		{EndToEndID: "0190F3A27B1C7DEF8A123456789ABC01-1", Amount: 11900, Mandate: "TNR0190F3A27B1C7DEF8A123456789AB001", MandateSigned: signed,
			Sequence: First, CollectionDate: day(t, "2026-12-01"), DebtorName: "Jürgen Müller", DebtorIBAN: mustIBAN(t, "DE89370400440532013000"),
			Remittance: "Rechnung 2026-000017 Miete Dezember 2026 Vertrag 4711"},
		{EndToEndID: "0190F3A27B1C7DEF8A123456789ABC02-1", Amount: 4999, Mandate: "TNR0190F3A27B1C7DEF8A123456789AB002", MandateSigned: signed,
			Sequence: First, CollectionDate: day(t, "2026-12-01"), DebtorName: "Anne de Vries", DebtorIBAN: mustIBAN(t, "NL91ABNA0417164300"), DebtorBIC: "ABNANL2A"},
		{EndToEndID: "0190F3A27B1C7DEF8A123456789ABC03-2", Amount: 123456, Mandate: "TNR0190F3A27B1C7DEF8A123456789AB003", MandateSigned: day(t, "2025-01-31"),
			Sequence: Recurring, CollectionDate: day(t, "2026-12-01"), DebtorName: "Françoise Dupré & Fils SARL", DebtorIBAN: mustIBAN(t, "FR1420041010050500013M02606"),
			Remittance: "Facture 2026-000018"},
		{EndToEndID: "0190F3A27B1C7DEF8A123456789ABC04-1", Amount: 1, Mandate: "TNR0190F3A27B1C7DEF8A123456789AB004", MandateSigned: day(t, "2026-12-02"),
			Sequence: Recurring, CollectionDate: day(t, "2026-12-02"), DebtorName: "Ola Nordmann", DebtorIBAN: mustIBAN(t, "NO9386011117947")},
		{EndToEndID: "0190F3A27B1C7DEF8A123456789ABC05-1", Amount: maxAmount, Mandate: "TNR0190F3A27B1C7DEF8A123456789AB005", MandateSigned: signed,
			Sequence: Recurring, CollectionDate: day(t, "2026-12-02"), DebtorName: strings.Repeat("Lange Firmenbezeichnung ", 5), DebtorIBAN: mustIBAN(t, "AT611904300234573201")},
	}
}

// writeDebits plans and writes a pain.008 file in memory.
func writeDebits(t testing.TB, f DirectDebitFile, debits iter.Seq2[DirectDebit, error]) ([]byte, Plan[DebitGroup]) {
	t.Helper()
	plan, err := PlanDirectDebits(debits)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteDirectDebits(&out, f, plan, debits); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), plan
}

func TestDirectDebitFileIsValidAndAddsUp(t *testing.T) {
	for _, scheme := range []Scheme{Core, B2B} {
		f := DirectDebitFile{MessageID: "TNR-20261125-0001", CreatedAt: testCreated, Creditor: testHolder(t), CreditorID: testCreditorID, Scheme: scheme, BatchBooking: true}
		debits := testDebits(t)
		data, plan := writeDebits(t, f, seq(debits))
		xmllint.Validate(t, schema("pain.008.001.08.xsd"), data)

		var doc pain008Document
		if err := xml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		h := doc.Header
		if h.MsgID != f.MessageID || h.CreDtTm != "2026-11-25T09:30:00+01:00" || h.Initiator != "Tenure Finanz GmbH + Co. KG" {
			t.Errorf("header %+v", h)
		}
		var all Totals
		for _, d := range debits {
			all.add(d.Amount)
		}
		if h.NbOfTxs != all.Count || amountOf(t, h.CtrlSum) != all.Sum || plan.Totals != all {
			t.Errorf("header says %d for %s, the file holds %d for %d", h.NbOfTxs, h.CtrlSum, all.Count, all.Sum)
		}
		wantBlocks := []struct {
			seq, date string
			n         int
		}{{"FRST", "2026-12-01", 2}, {"RCUR", "2026-12-01", 1}, {"RCUR", "2026-12-02", 2}}
		if len(doc.Blocks) != len(wantBlocks) {
			t.Fatalf("%d blocks, want %d", len(doc.Blocks), len(wantBlocks))
		}
		var counted Totals
		next := 0
		for i, b := range doc.Blocks {
			w := wantBlocks[i]
			if b.Sequence != w.seq || b.Date != w.date || len(b.Debits) != w.n {
				t.Errorf("block %d: %s %s with %d, want %s %s with %d", i, b.Sequence, b.Date, len(b.Debits), w.seq, w.date, w.n)
			}
			if b.ID != f.MessageID+"-"+strconv.Itoa(i+1) || b.Method != "DD" || b.BatchBooking != "true" || b.Service != "SEPA" ||
				b.Instrument != string(scheme) || b.ChargeBearer != "SLEV" || b.CreditorID != "DE98ZZZ09999999999" || b.SchemeName != "SEPA" ||
				b.CreditorIBAN != "DE02120300000000202051" || b.CreditorBIC != "BYLADEM1001" || b.Creditor != "Tenure Finanz GmbH + Co. KG" {
				t.Errorf("block %d: %+v", i, b)
			}
			var sum int64
			for _, d := range b.Debits {
				want := debits[next]
				next++
				sum += amountOf(t, d.Amount.Value)
				counted.add(amountOf(t, d.Amount.Value))
				if d.EndToEndID != string(want.EndToEndID) || amountOf(t, d.Amount.Value) != want.Amount || d.Amount.Ccy != "EUR" ||
					d.Mandate != string(want.Mandate) || d.Signed != want.MandateSigned.String() || d.DebtorIBAN != want.DebtorIBAN.Unmasked() ||
					d.Debtor != latin(want.DebtorName, 70) || d.Remittance != latin(want.Remittance, 140) {
					t.Errorf("collection %s: %+v", want.EndToEndID, d)
				}
				if (want.DebtorBIC == "") != (d.NoBIC == "NOTPROVIDED") || d.DebtorBIC != string(want.DebtorBIC) {
					t.Errorf("collection %s: the debtor's bank is %q / %q", want.EndToEndID, d.DebtorBIC, d.NoBIC)
				}
			}
			if b.NbOfTxs != len(b.Debits) || amountOf(t, b.CtrlSum) != sum {
				t.Errorf("block %d says %d for %s, holds %d for %d", i, b.NbOfTxs, b.CtrlSum, len(b.Debits), sum)
			}
		}
		if counted != all {
			t.Errorf("the blocks hold %+v, the run %+v", counted, all)
		}
		if got := doc.Blocks[0].Debits[0].Debtor; got != "Juergen Mueller" {
			t.Errorf("the debtor's name in the SEPA set: %q", got)
		}
		if got := doc.Blocks[2].Debits[1].Debtor; len(got) != 70 {
			t.Errorf("a long name is cut to 70 characters: %q", got)
		}
	}
}

func TestPlanDirectDebitsRefusesWhatTheBankWouldNot(t *testing.T) {
	valid := testDebits(t)[0]
	for _, tc := range []struct {
		name   string
		change func(*DirectDebit)
		want   string
	}{
		{"no end-to-end id", func(d *DirectDebit) { d.EndToEndID = "" }, "an end-to-end id is empty"},
		{"a long end-to-end id", func(d *DirectDebit) { d.EndToEndID += "XX" }, "has 36 characters, at most 35"},
		{"an end-to-end id with an umlaut", func(d *DirectDebit) { d.EndToEndID = "Müller-1" }, "outside the SEPA character set"},
		{"no amount", func(d *DirectDebit) { d.Amount = 0 }, "outside 0.01 to 999999999.99"},
		{"a negative amount", func(d *DirectDebit) { d.Amount = -100 }, "outside 0.01 to 999999999.99"},
		{"too large an amount", func(d *DirectDebit) { d.Amount = maxAmount + 1 }, "outside 0.01 to 999999999.99"},
		{"no mandate", func(d *DirectDebit) { d.Mandate = "" }, "the mandate reference is empty"},
		{"a mandate with //", func(d *DirectDebit) { d.Mandate = "A//B" }, `nor contain "//"`},
		{"no signature date", func(d *DirectDebit) { d.MandateSigned = civil.Date{} }, "no date of signature"},
		{"signed after the collection", func(d *DirectDebit) { d.MandateSigned = day(t, "2026-12-02") }, "after the collection date"},
		{"no collection date", func(d *DirectDebit) { d.CollectionDate = civil.Date{} }, "no collection date"},
		{"a one-off collection", func(d *DirectDebit) { d.Sequence = "OOFF" }, `FRST or RCUR, got "OOFF"`},
		{"no debtor IBAN", func(d *DirectDebit) { d.DebtorIBAN = IBAN{} }, "the debtor has no IBAN"},
		{"no debtor name", func(d *DirectDebit) { d.DebtorName = "  " }, "the debtor has no name"},
	} {
		d := valid
		tc.change(&d)
		_, err := PlanDirectDebits(seq([]DirectDebit{valid, d}))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}

	debits := testDebits(t)
	apart := []DirectDebit{debits[0], debits[2], debits[1]} // FRST, RCUR, FRST again
	if _, err := PlanDirectDebits(seq(apart)); err == nil || !strings.Contains(err.Error(), "group 2026-12-01 FRST come apart") {
		t.Errorf("a group coming back: %v", err)
	}
	if _, err := PlanDirectDebits(seq([]DirectDebit{})); err == nil || !strings.Contains(err.Error(), "at least one transaction") {
		t.Errorf("no collections: %v", err)
	}
	broken := errors.New("the database went away")
	failing := func(yield func(DirectDebit, error) bool) { _ = yield(debits[0], nil) && yield(DirectDebit{}, broken) }
	if _, err := PlanDirectDebits(failing); !errors.Is(err, broken) {
		t.Errorf("the source's error: %v", err)
	}
}

func TestWriteDirectDebitsRefusesABadHeader(t *testing.T) {
	debits := seq(testDebits(t))
	plan, err := PlanDirectDebits(debits)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(*DirectDebitFile)
		want   string
	}{
		{"no message id", func(f *DirectDebitFile) { f.MessageID = "" }, "the message id is empty"},
		{"a long message id", func(f *DirectDebitFile) { f.MessageID = strings.Repeat("M", 31) }, "has 31 characters, at most 30"},
		{"a message id with a slash at its end", func(f *DirectDebitFile) { f.MessageID = "TNR/" }, "may not start or end with '/'"},
		{"no creation time", func(f *DirectDebitFile) { f.CreatedAt = time.Time{} }, "no creation time"},
		{"no scheme", func(f *DirectDebitFile) { f.Scheme = "" }, `CORE or B2B, got ""`},
		{"no creditor IBAN", func(f *DirectDebitFile) { f.Creditor.IBAN = IBAN{} }, "the creditor has no IBAN"},
		{"no creditor identifier", func(f *DirectDebitFile) { f.CreditorID = "" }, "no creditor identifier"},
		{"no creditor name", func(f *DirectDebitFile) { f.Creditor.Name = "" }, "the creditor has no name"},
	} {
		f := DirectDebitFile{MessageID: "TNR-1", CreatedAt: testCreated, Creditor: testHolder(t), CreditorID: testCreditorID, Scheme: Core}
		tc.change(&f)
		var out bytes.Buffer
		if err := WriteDirectDebits(&out, f, plan, debits); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if out.Len() > 0 {
			t.Errorf("%s: wrote %d bytes of a file it refuses", tc.name, out.Len())
		}
	}
}

// The second pass must bring what the first planned; anything else fails
// with ErrNotAsPlanned.
func TestWriteDirectDebitsFailsWhenTheSecondPassDiffers(t *testing.T) {
	f := DirectDebitFile{MessageID: "TNR-1", CreatedAt: testCreated, Creditor: testHolder(t), CreditorID: testCreditorID, Scheme: Core}
	debits := testDebits(t)
	plan, err := PlanDirectDebits(seq(debits))
	if err != nil {
		t.Fatal(err)
	}
	changedAmount := slices.Clone(debits)
	changedAmount[1].Amount++
	moved := slices.Clone(debits)
	moved[2].CollectionDate = day(t, "2026-12-02")
	for _, tc := range []struct {
		name   string
		second []DirectDebit
	}{
		{"an amount changed", changedAmount},
		{"one more", append(slices.Clone(debits), debits[4])},
		{"one fewer in the last group", debits[:4]},
		{"a group missing", debits[:2]},
		{"a collection moved to another date", moved},
		{"another order", []DirectDebit{debits[3], debits[4], debits[0], debits[1], debits[2]}},
		{"nothing", nil},
	} {
		var out bytes.Buffer
		if err := WriteDirectDebits(&out, f, plan, seq(tc.second)); !errors.Is(err, ErrNotAsPlanned) {
			t.Errorf("%s: %v, want ErrNotAsPlanned", tc.name, err)
		}
	}

	handMade := plan
	handMade.Sum++
	if err := WriteDirectDebits(&bytes.Buffer{}, f, handMade, seq(debits)); !errors.Is(err, ErrNotAsPlanned) {
		t.Errorf("a plan whose groups do not add up: %v", err)
	}
	twice := Plan[DebitGroup]{Groups: []Group[DebitGroup]{plan.Groups[0], plan.Groups[0]}}
	twice.Count, twice.Sum = 2*plan.Groups[0].Count, 2*plan.Groups[0].Sum
	if err := WriteDirectDebits(&bytes.Buffer{}, f, twice, seq(debits)); !errors.Is(err, ErrNotAsPlanned) {
		t.Errorf("a plan with a group twice: %v", err)
	}
	if err := WriteDirectDebits(&bytes.Buffer{}, f, Plan[DebitGroup]{}, seq(debits)); !errors.Is(err, ErrNotAsPlanned) {
		t.Errorf("an empty plan: %v", err)
	}

	// A plan made by the caller from its own totals (a GROUP BY) works
	// like a computed one.
	var byHand Plan[DebitGroup]
	for _, g := range plan.Groups {
		byHand.Groups = append(byHand.Groups, Group[DebitGroup]{Key: g.Key, Totals: Totals{Count: g.Count, Sum: g.Sum}})
		byHand.Count += g.Count
		byHand.Sum += g.Sum
	}
	var out bytes.Buffer
	if err := WriteDirectDebits(&out, f, byHand, seq(debits)); err != nil {
		t.Errorf("a hand-made plan: %v", err)
	}
	xmllint.Validate(t, schema("pain.008.001.08.xsd"), out.Bytes())

	invalid := slices.Clone(debits)
	invalid[3].DebtorName = ""
	if err := WriteDirectDebits(&bytes.Buffer{}, f, plan, seq(invalid)); err == nil || !strings.Contains(err.Error(), "the debtor has no name") {
		t.Errorf("an invalid collection in the second pass: %v", err)
	}
}

// xmllint itself refuses what the schema does not allow, so the
// validations above would see a broken file.
func TestTheSchemaCheckCatchesABrokenFile(t *testing.T) {
	f := DirectDebitFile{MessageID: "TNR-1", CreatedAt: testCreated, Creditor: testHolder(t), CreditorID: testCreditorID, Scheme: Core}
	data, _ := writeDebits(t, f, seq(testDebits(t)))
	broken := bytes.Replace(data, []byte("<SeqTp>FRST</SeqTp>"), []byte("<SeqTp>ONCE</SeqTp>"), 1)
	inner := &recorder{TB: t}
	xmllint.Validate(inner, schema("pain.008.001.08.xsd"), broken)
	if !inner.failed || !strings.Contains(inner.message, "SeqTp") {
		t.Errorf("xmllint passed a file with an unknown sequence type: %q", inner.message)
	}
}

// recorder is a testing.TB that records a failure instead of failing.
type recorder struct {
	testing.TB
	failed  bool
	message string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed, r.message = true, fmt.Sprintf(format, args...)
}
