package sepa

import (
	"bytes"
	"encoding/xml"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
)

// pain001Document is what the tests read back from a pain.001 file.
type pain001Document struct {
	XMLName xml.Name `xml:"urn:iso:std:iso:20022:tech:xsd:pain.001.001.09 Document"`
	Header  struct {
		MsgID     string `xml:"MsgId"`
		NbOfTxs   int
		CtrlSum   string
		Initiator string `xml:"InitgPty>Nm"`
	} `xml:"CstmrCdtTrfInitn>GrpHdr"`
	Blocks []struct {
		ID         string `xml:"PmtInfId"`
		Method     string `xml:"PmtMtd"`
		NbOfTxs    int
		CtrlSum    string
		Service    string `xml:"PmtTpInf>SvcLvl>Cd"`
		Date       string `xml:"ReqdExctnDt>Dt"`
		Debtor     string `xml:"Dbtr>Nm"`
		DebtorIBAN string `xml:"DbtrAcct>Id>IBAN"`
		DebtorBIC  string `xml:"DbtrAgt>FinInstnId>BICFI"`
		Transfers  []struct {
			EndToEndID   string        `xml:"PmtId>EndToEndId"`
			Amount       amountElement `xml:"Amt>InstdAmt"`
			CreditorBIC  string        `xml:"CdtrAgt>FinInstnId>BICFI"`
			Creditor     string        `xml:"Cdtr>Nm"`
			CreditorIBAN string        `xml:"CdtrAcct>Id>IBAN"`
			Remittance   string        `xml:"RmtInf>Ustrd"`
		} `xml:"CdtTrfTxInf"`
	} `xml:"CstmrCdtTrfInitn>PmtInf"`
}

// testPayouts are a day's payouts to sellers, on two execution dates.
func testPayouts(t testing.TB) []CreditTransfer {
	return []CreditTransfer{
		{EndToEndID: "PAYOUT-0190F3A27B1C7DEF8A1234567", Amount: 149900, ExecutionDate: day(t, "2026-11-26"),
			CreditorName: "Fahrradladen Köhler e.K.", CreditorIBAN: mustIBAN(t, "DE89370400440532013000"), Remittance: "Auszahlung Bestellung 2026-4711"},
		{EndToEndID: "PAYOUT-0190F3A27B1C7DEF8A1234568", Amount: 99, ExecutionDate: day(t, "2026-11-26"),
			CreditorName: "Bike Shop B.V.", CreditorIBAN: mustIBAN(t, "NL91ABNA0417164300"), CreditorBIC: "ABNANL2A"},
		{EndToEndID: "PAYOUT-0190F3A27B1C7DEF8A1234569", Amount: 2500000, ExecutionDate: day(t, "2026-11-27"),
			CreditorName: "Électro Vélo SARL", CreditorIBAN: mustIBAN(t, "FR1420041010050500013M02606"), Remittance: "Versement commande 2026-4712"},
	}
}

func TestCreditTransferFileIsValidAndAddsUp(t *testing.T) {
	f := CreditTransferFile{MessageID: "TNR-PAYOUT-20261125", CreatedAt: testCreated, Debtor: testHolder(t), BatchBooking: true}
	payouts := testPayouts(t)
	plan, err := PlanCreditTransfers(seq(payouts))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteCreditTransfers(&out, f, plan, seq(payouts)); err != nil {
		t.Fatal(err)
	}
	xmllint.Validate(t, schema("pain.001.001.09.xsd"), out.Bytes())

	var doc pain001Document
	if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if h := doc.Header; h.MsgID != f.MessageID || h.NbOfTxs != 3 || amountOf(t, h.CtrlSum) != 149900+99+2500000 || h.Initiator != "Tenure Finanz GmbH + Co. KG" {
		t.Errorf("header %+v", h)
	}
	if len(doc.Blocks) != 2 {
		t.Fatalf("%d blocks, want one per execution date", len(doc.Blocks))
	}
	next := 0
	for i, b := range doc.Blocks {
		var sum int64
		for _, tr := range b.Transfers {
			want := payouts[next]
			next++
			sum += amountOf(t, tr.Amount.Value)
			if tr.EndToEndID != string(want.EndToEndID) || amountOf(t, tr.Amount.Value) != want.Amount || tr.Amount.Ccy != "EUR" ||
				tr.CreditorIBAN != want.CreditorIBAN.Unmasked() || tr.CreditorBIC != string(want.CreditorBIC) ||
				tr.Creditor != latin(want.CreditorName, 70) || tr.Remittance != latin(want.Remittance, 140) || b.Date != want.ExecutionDate.String() {
				t.Errorf("transfer %s: %+v in block %s", want.EndToEndID, tr, b.Date)
			}
		}
		if b.ID != f.MessageID+"-"+strconv.Itoa(i+1) || b.Method != "TRF" || b.Service != "SEPA" || b.Debtor != "Tenure Finanz GmbH + Co. KG" ||
			b.DebtorIBAN != "DE02120300000000202051" || b.DebtorBIC != "BYLADEM1001" {
			t.Errorf("block %d: %+v", i, b)
		}
		if b.NbOfTxs != len(b.Transfers) || amountOf(t, b.CtrlSum) != sum {
			t.Errorf("block %d says %d for %s, holds %d for %d", i, b.NbOfTxs, b.CtrlSum, len(b.Transfers), sum)
		}
	}
	if got := doc.Blocks[0].Transfers[0].Creditor; got != "Fahrradladen Koehler e.K." {
		t.Errorf("the creditor's name in the SEPA set: %q", got)
	}
}

func TestCreditTransfersAreRefusedWithTheReason(t *testing.T) {
	valid := testPayouts(t)[0]
	for _, tc := range []struct {
		name   string
		change func(*CreditTransfer)
		want   string
	}{
		{"no end-to-end id", func(c *CreditTransfer) { c.EndToEndID = "" }, "an end-to-end id is empty"},
		{"no amount", func(c *CreditTransfer) { c.Amount = 0 }, "transfer PAYOUT-0190F3A27B1C7DEF8A1234567: the amount 0 cents is outside"},
		{"no execution date", func(c *CreditTransfer) { c.ExecutionDate = civil.Date{} }, "no execution date"},
		{"no creditor IBAN", func(c *CreditTransfer) { c.CreditorIBAN = IBAN{} }, "the creditor has no IBAN"},
		{"no creditor name", func(c *CreditTransfer) { c.CreditorName = "\t" }, "the creditor has no name"},
	} {
		c := valid
		tc.change(&c)
		if _, err := PlanCreditTransfers(seq([]CreditTransfer{c})); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}

	payouts := testPayouts(t)
	plan, err := PlanCreditTransfers(seq(payouts))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(*CreditTransferFile)
		want   string
	}{
		{"no message id", func(f *CreditTransferFile) { f.MessageID = "" }, "the message id is empty"},
		{"no creation time", func(f *CreditTransferFile) { f.CreatedAt = time.Time{} }, "no creation time"},
		{"no debtor IBAN", func(f *CreditTransferFile) { f.Debtor.IBAN = IBAN{} }, "the debtor has no IBAN"},
		{"no debtor name", func(f *CreditTransferFile) { f.Debtor.Name = "" }, "the debtor has no name"},
	} {
		f := CreditTransferFile{MessageID: "TNR-1", CreatedAt: testCreated, Debtor: testHolder(t)}
		tc.change(&f)
		if err := WriteCreditTransfers(&bytes.Buffer{}, f, plan, seq(payouts)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}

	f := CreditTransferFile{MessageID: "TNR-1", CreatedAt: testCreated, Debtor: testHolder(t)}
	changed := slices.Clone(payouts)
	changed[2].Amount--
	if err := WriteCreditTransfers(&bytes.Buffer{}, f, plan, seq(changed)); !errors.Is(err, ErrNotAsPlanned) {
		t.Errorf("a changed amount in the second pass: %v", err)
	}
	apart := []CreditTransfer{payouts[0], payouts[2], payouts[1]}
	if _, err := PlanCreditTransfers(seq(apart)); err == nil || !strings.Contains(err.Error(), "come apart") {
		t.Errorf("an execution date coming back: %v", err)
	}
}
