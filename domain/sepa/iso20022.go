package sepa

import (
	"fmt"
	"strconv"
	"time"

	"github.com/tenurehq/tenure/foundation/xmlstream"
)

// Parts the pain.008 and pain.001 files share.

// maxAmount is the largest amount of one SEPA transaction, 999,999,999.99
// euro, in cents.
const maxAmount = 99_999_999_999

// Text lengths of the EPC guidelines.
const (
	maxNameLength       = 70  // Nm of a party
	maxRemittanceLength = 140 // RmtInf/Ustrd
	maxMessageIDLength  = 30  // MsgId: 35, less "-" and up to four digits of a PmtInfId
)

// amountText is an amount in cents as ISO 20022 writes it: "1234.50".
func amountText(cents int64) string {
	return strconv.FormatInt(cents/100, 10) + "." + fmt.Sprintf("%02d", cents%100)
}

// checkAmount refuses an amount outside 0.01 to 999,999,999.99 euro.
func checkAmount(cents int64) error {
	if cents < 1 || cents > maxAmount {
		return fmt.Errorf("the amount %d cents is outside 0.01 to 999999999.99 euro", cents)
	}
	return nil
}

// dateTimeText is a creation time as ISO 20022 writes it, to the second
// with its offset.
func dateTimeText(t time.Time) string { return t.Truncate(time.Second).Format(time.RFC3339) }

// partyName is a name converted to the SEPA set and cut to 70 characters;
// a name with nothing left is refused.
func partyName(what, name string) (string, error) {
	n := latin(name, maxNameLength)
	if n == "" {
		return "", fmt.Errorf("%s has no name", what)
	}
	return n, nil
}

// writeParty writes a party by its name: <element><Nm>…</Nm></element>.
func writeParty(x *xmlstream.Writer, element, name string) {
	x.Start(element)
	x.Text("Nm", name)
	x.End()
}

// writeAccount writes an account by its IBAN.
func writeAccount(x *xmlstream.Writer, element string, iban IBAN) {
	x.Start(element)
	x.Start("Id")
	x.Text("IBAN", iban.Unmasked())
	x.End()
	x.End()
}

// writeAgent writes a bank by its BIC, or NOTPROVIDED without one (the
// EPC guidelines' "IBAN only").
func writeAgent(x *xmlstream.Writer, element string, bic BIC) {
	x.Start(element)
	x.Start("FinInstnId")
	if bic != "" {
		x.Text("BICFI", string(bic))
	} else {
		x.Start("Othr")
		x.Text("Id", "NOTPROVIDED")
		x.End()
	}
	x.End()
	x.End()
}

// writeGroupHeader writes a file's GrpHdr.
func writeGroupHeader(x *xmlstream.Writer, messageID string, created time.Time, t Totals, initiator string) {
	x.Start("GrpHdr")
	x.Text("MsgId", messageID)
	x.Text("CreDtTm", dateTimeText(created))
	x.Text("NbOfTxs", strconv.Itoa(t.Count))
	x.Text("CtrlSum", amountText(t.Sum))
	writeParty(x, "InitgPty", initiator)
	x.End()
}

// paymentInformationID is the id of a file's i-th block (0-based).
func paymentInformationID(messageID string, i int) string {
	return messageID + "-" + strconv.Itoa(i+1)
}

// checkMessageID refuses a message id outside the identifier rules, or too
// long to name its blocks after it.
func checkMessageID(id string) error {
	return checkIdentifier("the message id", id, maxMessageIDLength)
}
