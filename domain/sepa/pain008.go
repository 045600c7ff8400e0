package sepa

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/xmlstream"
)

// pain008Namespace is the namespace of pain.008.001.08, the version of the
// EPC's current SDD Customer-to-PSP implementation guidelines.
const pain008Namespace = "urn:iso:std:iso:20022:tech:xsd:pain.008.001.08"

// AccountHolder is the party a file is sent for, by its name and account:
// the creditor of a direct debit file, the debtor of a credit transfer
// file.
type AccountHolder struct {
	Name string
	IBAN IBAN
	BIC  BIC // optional: IBAN only
}

// DirectDebitFile is what a pain.008 file says once, before its
// collections.
type DirectDebitFile struct {
	// MessageID identifies the file to the bank, which refuses one it has
	// seen: 1 to 30 characters of the SEPA set (each block's id is the
	// message id, "-" and its number).
	MessageID string
	CreatedAt time.Time
	Creditor  AccountHolder
	// CreditorID identifies the creditor in the scheme.
	CreditorID CreditorID
	// Scheme is the local instrument of every collection, CORE or B2B: a
	// file holds one scheme.
	Scheme Scheme
	// BatchBooking asks the bank for one booking per block (true) or one
	// per collection (false).
	BatchBooking bool
}

// DirectDebit is one collection.
type DirectDebit struct {
	EndToEndID EndToEndID
	// Amount is in euro cents.
	Amount         int64
	Mandate        MandateReference
	MandateSigned  civil.Date
	Sequence       SequenceType
	CollectionDate civil.Date
	DebtorName     string // converted to the SEPA set, cut to 70 characters
	DebtorIBAN     IBAN
	DebtorBIC      BIC    // optional
	Remittance     string // optional; converted, cut to 140 characters
}

// DebitGroup is the key of a pain.008 payment information block: one per
// collection date and sequence type.
type DebitGroup struct {
	CollectionDate civil.Date
	Sequence       SequenceType
}

// String names the group in errors.
func (g DebitGroup) String() string { return g.CollectionDate.String() + " " + string(g.Sequence) }

// PlanDirectDebits is the first pass over a file's collections: each is
// checked, and counted and added up per block. Collections must come
// ordered by collection date and sequence type (any order of the groups,
// but each group's collections together).
func PlanDirectDebits(debits iter.Seq2[DirectDebit, error]) (Plan[DebitGroup], error) {
	return makePlan(debits)
}

// WriteDirectDebits writes a pain.008.001.08 file of the collections,
// the second pass (see Plan): its header and blocks carry the plan's
// totals, and the collections must come as planned. Memory stays flat in
// the number of collections. On an error the output is incomplete and
// must be thrown away.
func WriteDirectDebits(w io.Writer, f DirectDebitFile, plan Plan[DebitGroup], debits iter.Seq2[DirectDebit, error]) error {
	creditorName, err := f.check()
	if err != nil {
		return err
	}
	if err := plan.check(); err != nil {
		return err
	}
	x := xmlstream.NewWriter(w)
	x.Start("Document", xmlstream.Attr("xmlns", pain008Namespace))
	x.Start("CstmrDrctDbtInitn")
	writeGroupHeader(x, f.MessageID, f.CreatedAt, plan.Totals, creditorName)
	writeBlocks(x, plan, debits, func(i int, g Group[DebitGroup]) { writeDebitBlock(x, f, creditorName, i, g) }, func(d DirectDebit) { writeDebit(x, d) })
	x.End() // PmtInf
	x.End() // CstmrDrctDbtInitn
	x.End() // Document
	return x.Close()
}

// check refuses a file header the EPC guidelines would not take; it
// returns the creditor's name in the SEPA set.
func (f DirectDebitFile) check() (string, error) {
	if err := checkMessageID(f.MessageID); err != nil {
		return "", err
	}
	if f.CreatedAt.IsZero() {
		return "", errors.New("the file has no creation time")
	}
	if f.Scheme != Core && f.Scheme != B2B {
		return "", fmt.Errorf("the scheme is CORE or B2B, got %q", f.Scheme)
	}
	if f.Creditor.IBAN.IsZero() {
		return "", errors.New("the creditor has no IBAN")
	}
	if f.CreditorID == "" {
		return "", errors.New("the creditor has no creditor identifier")
	}
	return partyName("the creditor", f.Creditor.Name)
}

// group is the block a collection goes into.
func (d DirectDebit) group() DebitGroup {
	return DebitGroup{CollectionDate: d.CollectionDate, Sequence: d.Sequence}
}

// amount is the collection's amount.
func (d DirectDebit) amount() int64 { return d.Amount }

// check refuses a collection the EPC guidelines would not take, naming it
// by its end-to-end id.
func (d DirectDebit) check() error {
	if err := checkIdentifier("an end-to-end id", string(d.EndToEndID), 35); err != nil {
		return err
	}
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("collection %s: %s", d.EndToEndID, fmt.Sprintf(format, args...))
	}
	if err := checkAmount(d.Amount); err != nil {
		return refuse("%v", err)
	}
	if err := checkIdentifier("the mandate reference", string(d.Mandate), 35); err != nil {
		return refuse("%v", err)
	}
	switch {
	case d.MandateSigned.IsZero():
		return refuse("the mandate has no date of signature")
	case d.CollectionDate.IsZero():
		return refuse("it has no collection date")
	case d.MandateSigned.After(d.CollectionDate):
		return refuse("the mandate is signed on %s, after the collection date %s", d.MandateSigned, d.CollectionDate)
	case d.Sequence != First && d.Sequence != Recurring:
		return refuse("the sequence type is FRST or RCUR, got %q", d.Sequence)
	case d.DebtorIBAN.IsZero():
		return refuse("the debtor has no IBAN")
	case latin(d.DebtorName, maxNameLength) == "":
		return refuse("the debtor has no name")
	}
	return nil
}

// writeDebitBlock opens the i-th payment information block: the group's
// totals, its collection date and sequence type, and the creditor.
func writeDebitBlock(x *xmlstream.Writer, f DirectDebitFile, creditorName string, i int, g Group[DebitGroup]) {
	x.Start("PmtInf")
	x.Text("PmtInfId", paymentInformationID(f.MessageID, i))
	x.Text("PmtMtd", "DD")
	x.Text("BtchBookg", fmt.Sprint(f.BatchBooking))
	x.Text("NbOfTxs", fmt.Sprint(g.Count))
	x.Text("CtrlSum", amountText(g.Sum))
	x.Start("PmtTpInf")
	x.Start("SvcLvl")
	x.Text("Cd", "SEPA")
	x.End()
	x.Start("LclInstrm")
	x.Text("Cd", string(f.Scheme))
	x.End()
	x.Text("SeqTp", string(g.Key.Sequence))
	x.End()
	x.Text("ReqdColltnDt", g.Key.CollectionDate.String())
	writeParty(x, "Cdtr", creditorName)
	writeAccount(x, "CdtrAcct", f.Creditor.IBAN)
	writeAgent(x, "CdtrAgt", f.Creditor.BIC)
	x.Text("ChrgBr", "SLEV")
	x.Start("CdtrSchmeId")
	x.Start("Id")
	x.Start("PrvtId")
	x.Start("Othr")
	x.Text("Id", string(f.CreditorID))
	x.Start("SchmeNm")
	x.Text("Prtry", "SEPA")
	x.End()
	x.End()
	x.End()
	x.End()
	x.End()
}

// writeDebit writes one collection (DrctDbtTxInf).
func writeDebit(x *xmlstream.Writer, d DirectDebit) {
	x.Start("DrctDbtTxInf")
	x.Start("PmtId")
	x.Text("EndToEndId", string(d.EndToEndID))
	x.End()
	x.Text("InstdAmt", amountText(d.Amount), xmlstream.Attr("Ccy", "EUR"))
	x.Start("DrctDbtTx")
	x.Start("MndtRltdInf")
	x.Text("MndtId", string(d.Mandate))
	x.Text("DtOfSgntr", d.MandateSigned.String())
	x.End()
	x.End()
	writeAgent(x, "DbtrAgt", d.DebtorBIC)
	writeParty(x, "Dbtr", latin(d.DebtorName, maxNameLength))
	writeAccount(x, "DbtrAcct", d.DebtorIBAN)
	if r := latin(d.Remittance, maxRemittanceLength); r != "" {
		x.Start("RmtInf")
		x.Text("Ustrd", r)
		x.End()
	}
	x.End()
}
