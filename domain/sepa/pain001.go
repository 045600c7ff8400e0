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

// pain001Namespace is the namespace of pain.001.001.09, the version of the
// EPC's current SCT Customer-to-PSP implementation guidelines.
const pain001Namespace = "urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"

// CreditTransferFile is what a pain.001 file says once, before its
// transfers: who pays them, from which account.
type CreditTransferFile struct {
	// MessageID identifies the file to the bank: 1 to 30 characters of the
	// SEPA set, as for direct debit files.
	MessageID    string
	CreatedAt    time.Time
	Debtor       AccountHolder
	BatchBooking bool
}

// CreditTransfer is one transfer, e.g. a payout to a seller.
type CreditTransfer struct {
	EndToEndID EndToEndID
	// Amount is in euro cents.
	Amount int64
	// ExecutionDate is the day the debtor's bank is to execute it.
	ExecutionDate civil.Date
	CreditorName  string // converted to the SEPA set, cut to 70 characters
	CreditorIBAN  IBAN
	CreditorBIC   BIC    // optional
	Remittance    string // optional; converted, cut to 140 characters
}

// PlanCreditTransfers is the first pass over a file's transfers (see
// Plan): each is checked, counted and added up per execution date.
// Transfers of one execution date must come together.
func PlanCreditTransfers(transfers iter.Seq2[CreditTransfer, error]) (Plan[civil.Date], error) {
	return makePlan(transfers)
}

// WriteCreditTransfers writes a pain.001.001.09 file of the transfers,
// the second pass (see Plan), one payment information block per execution
// date. Memory stays flat in the number of transfers. On an error the
// output is incomplete and must be thrown away.
func WriteCreditTransfers(w io.Writer, f CreditTransferFile, plan Plan[civil.Date], transfers iter.Seq2[CreditTransfer, error]) error {
	debtorName, err := f.check()
	if err != nil {
		return err
	}
	if err := plan.check(); err != nil {
		return err
	}
	x := xmlstream.NewWriter(w)
	x.Start("Document", xmlstream.Attr("xmlns", pain001Namespace))
	x.Start("CstmrCdtTrfInitn")
	writeGroupHeader(x, f.MessageID, f.CreatedAt, plan.Totals, debtorName)
	writeBlocks(x, plan, transfers, func(i int, g Group[civil.Date]) { writeTransferBlock(x, f, debtorName, i, g) }, func(c CreditTransfer) { writeTransfer(x, c) })
	x.End() // PmtInf
	x.End() // CstmrCdtTrfInitn
	x.End() // Document
	return x.Close()
}

// check refuses a file header the EPC guidelines would not take; it
// returns the debtor's name in the SEPA set.
func (f CreditTransferFile) check() (string, error) {
	if err := checkMessageID(f.MessageID); err != nil {
		return "", err
	}
	if f.CreatedAt.IsZero() {
		return "", errors.New("the file has no creation time")
	}
	if f.Debtor.IBAN.IsZero() {
		return "", errors.New("the debtor has no IBAN")
	}
	return partyName("the debtor", f.Debtor.Name)
}

// group is the block a transfer goes into: its execution date.
func (c CreditTransfer) group() civil.Date { return c.ExecutionDate }

// amount is the transfer's amount.
func (c CreditTransfer) amount() int64 { return c.Amount }

// check refuses a transfer the EPC guidelines would not take, naming it by
// its end-to-end id.
func (c CreditTransfer) check() error {
	if err := checkIdentifier("an end-to-end id", string(c.EndToEndID), 35); err != nil {
		return err
	}
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("transfer %s: %s", c.EndToEndID, fmt.Sprintf(format, args...))
	}
	if err := checkAmount(c.Amount); err != nil {
		return refuse("%v", err)
	}
	switch {
	case c.ExecutionDate.IsZero():
		return refuse("it has no execution date")
	case c.CreditorIBAN.IsZero():
		return refuse("the creditor has no IBAN")
	case latin(c.CreditorName, maxNameLength) == "":
		return refuse("the creditor has no name")
	}
	return nil
}

// writeTransferBlock opens the i-th payment information block: the
// group's totals, its execution date and the debtor.
func writeTransferBlock(x *xmlstream.Writer, f CreditTransferFile, debtorName string, i int, g Group[civil.Date]) {
	x.Start("PmtInf")
	x.Text("PmtInfId", paymentInformationID(f.MessageID, i))
	x.Text("PmtMtd", "TRF")
	x.Text("BtchBookg", fmt.Sprint(f.BatchBooking))
	x.Text("NbOfTxs", fmt.Sprint(g.Count))
	x.Text("CtrlSum", amountText(g.Sum))
	x.Start("PmtTpInf")
	x.Start("SvcLvl")
	x.Text("Cd", "SEPA")
	x.End()
	x.End()
	x.Start("ReqdExctnDt")
	x.Text("Dt", g.Key.String())
	x.End()
	writeParty(x, "Dbtr", debtorName)
	writeAccount(x, "DbtrAcct", f.Debtor.IBAN)
	writeAgent(x, "DbtrAgt", f.Debtor.BIC)
	x.Text("ChrgBr", "SLEV")
}

// writeTransfer writes one transfer (CdtTrfTxInf).
func writeTransfer(x *xmlstream.Writer, c CreditTransfer) {
	x.Start("CdtTrfTxInf")
	x.Start("PmtId")
	x.Text("EndToEndId", string(c.EndToEndID))
	x.End()
	x.Start("Amt")
	x.Text("InstdAmt", amountText(c.Amount), xmlstream.Attr("Ccy", "EUR"))
	x.End()
	if c.CreditorBIC != "" {
		writeAgent(x, "CdtrAgt", c.CreditorBIC)
	}
	writeParty(x, "Cdtr", latin(c.CreditorName, maxNameLength))
	writeAccount(x, "CdtrAcct", c.CreditorIBAN)
	if r := latin(c.Remittance, maxRemittanceLength); r != "" {
		x.Start("RmtInf")
		x.Text("Ustrd", r)
		x.End()
	}
	x.End()
}
