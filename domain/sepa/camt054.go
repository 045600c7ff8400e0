package sepa

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/tenurehq/tenure/foundation/civil"
)

// camt054Namespace is the namespace of camt.054.001.08, the debit and
// credit notification German banks deliver (DFÜ-Abkommen, Anlage 3).
const camt054Namespace = "urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"

// Outcome is what a bank notification says became of a collection.
type Outcome string

// A collection is paid when its credit is booked on the creditor's
// account; it is returned when the bank takes it back (a return, a refund,
// or a reject reported for information), with a reason.
const (
	Paid     Outcome = "paid"
	Returned Outcome = "returned"
)

// Notice is one collection a notification reports on.
type Notice struct {
	Outcome    Outcome
	EndToEndID EndToEndID
	// Amount is the collection's amount in cents (for a return, the
	// amount originally collected).
	Amount int64
	// Fees are the charges in cents the banks took for a return (0 for
	// none).
	Fees int64
	// Reason is a return's reason code; empty for a paid collection.
	Reason ReturnReason
	// BookingDate and ValueDate are the entry's, when the bank gives them.
	BookingDate civil.Date
	ValueDate   civil.Date
	// Account is the notified account: the creditor's.
	Account IBAN
	// BankReference is the bank's reference of the transaction (or, when
	// it gives none, of its entry).
	BankReference string
}

// ReadNotifications reads a camt.054.001.08 bank-to-customer debit/credit
// notification as a stream: one Notice for each collection whose credit is
// booked (CRDT, status BOOK) and one for each returned collection (a
// transaction with return information, booked or for information), named
// by its end-to-end id. Other entries (pending ones, transfers and fees
// without an end-to-end id, entries without transaction details) are not
// collections of a file and are skipped. Only one transaction's details
// are held at a time, however long the file.
//
// An error (not a camt.054.001.08 document, broken XML, an amount that is
// not euro) ends the sequence; notices before it were read correctly.
func ReadNotifications(r io.Reader) iter.Seq2[Notice, error] {
	return func(yield func(Notice, error) bool) {
		n := notificationReader{dec: xml.NewDecoder(r), yield: yield}
		err := n.read()
		var syntax *xml.SyntaxError
		switch {
		case err == nil, errors.Is(err, errStopped):
			return
		case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF):
			err = fmt.Errorf("the notification is not well-formed XML: %w", err)
		}
		yield(Notice{}, err)
	}
}

// errStopped ends reading when the caller stops the iteration.
var errStopped = errors.New("stopped")

// notificationReader walks a notification's tokens.
type notificationReader struct {
	dec     *xml.Decoder
	yield   func(Notice, error) bool
	account IBAN
}

// amountElement is an amount with its currency.
type amountElement struct {
	Value string `xml:",chardata"`
	Ccy   string `xml:"Ccy,attr"`
}

// dateChoice is a date given as a date or a date and time.
type dateChoice struct {
	Date     string `xml:"Dt"`
	DateTime string `xml:"DtTm"`
}

// entry is what a notification says of an entry before its details.
type entry struct {
	creditDebit string
	reversal    bool
	status      string
	booked      civil.Date
	value       civil.Date
	reference   string
}

// transactionDetails are the parts of a TxDtls the reader uses.
type transactionDetails struct {
	EndToEndID   string         `xml:"Refs>EndToEndId"`
	Reference    string         `xml:"Refs>AcctSvcrRef"`
	Amount       *amountElement `xml:"Amt"`
	CreditDebit  string         `xml:"CdtDbtInd"`
	Instructed   *amountElement `xml:"AmtDtls>InstdAmt>Amt"`
	ChargesTotal *amountElement `xml:"Chrgs>TtlChrgsAndTaxAmt"`
	Charges      []struct {
		Amount amountElement `xml:"Amt"`
	} `xml:"Chrgs>Rcrd"`
	Return *struct {
		Code        string `xml:"Rsn>Cd"`
		Proprietary string `xml:"Rsn>Prtry"`
	} `xml:"RtrInf"`
}

// read walks the document to its end.
func (n *notificationReader) read() error {
	started := false
	for {
		tok, err := n.dec.Token()
		if err == io.EOF {
			if !started {
				return errors.New("the file is empty, not a camt.054 notification")
			}
			return nil
		}
		if err != nil {
			return err
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch {
		case !started:
			if start.Name.Local != "Document" || start.Name.Space != camt054Namespace {
				return fmt.Errorf("the file is not a camt.054.001.08 notification: it starts with <%s> in namespace %q", start.Name.Local, start.Name.Space)
			}
			started = true
		case start.Name.Local == "Acct":
			if err := n.readAccount(start); err != nil {
				return err
			}
		case start.Name.Local == "Ntry":
			if err := n.readEntry(); err != nil {
				return err
			}
		}
	}
}

// readAccount reads the notified account.
func (n *notificationReader) readAccount(start xml.StartElement) error {
	var acct struct {
		IBAN string `xml:"Id>IBAN"`
	}
	if err := n.dec.DecodeElement(&acct, &start); err != nil {
		return fmt.Errorf("reading the notified account: %w", err)
	}
	n.account = IBAN{}
	if acct.IBAN != "" {
		iban, err := ParseIBAN(acct.IBAN)
		if err != nil {
			return fmt.Errorf("the notified account: %w", err)
		}
		n.account = iban
	}
	return nil
}

// readEntry reads one entry: its header, then each transaction's details
// as they come.
func (n *notificationReader) readEntry() error {
	var e entry
	for {
		tok, err := n.dec.Token()
		if err != nil {
			return fmt.Errorf("reading an entry: %w", err)
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil // </Ntry>
		case xml.StartElement:
			if err := n.readEntryPart(&e, t); err != nil {
				return err
			}
		}
	}
}

// readEntryPart reads one child of an entry.
func (n *notificationReader) readEntryPart(e *entry, t xml.StartElement) error {
	switch t.Name.Local {
	case "CdtDbtInd":
		return n.dec.DecodeElement(&e.creditDebit, &t)
	case "RvslInd":
		var s string
		err := n.dec.DecodeElement(&s, &t)
		e.reversal = strings.TrimSpace(s) == "true"
		return err
	case "Sts":
		var s struct {
			Code string `xml:"Cd"`
		}
		err := n.dec.DecodeElement(&s, &t)
		e.status = s.Code
		return err
	case "BookgDt", "ValDt":
		var c dateChoice
		if err := n.dec.DecodeElement(&c, &t); err != nil {
			return err
		}
		d, err := c.date()
		if t.Name.Local == "BookgDt" {
			e.booked = d
		} else {
			e.value = d
		}
		return err
	case "AcctSvcrRef":
		return n.dec.DecodeElement(&e.reference, &t)
	case "NtryDtls":
		return n.readDetails(e)
	}
	return n.dec.Skip()
}

// readDetails reads an entry's transactions one at a time.
func (n *notificationReader) readDetails(e *entry) error {
	for {
		tok, err := n.dec.Token()
		if err != nil {
			return fmt.Errorf("reading an entry's details: %w", err)
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil // </NtryDtls>
		case xml.StartElement:
			if t.Name.Local != "TxDtls" {
				if err := n.dec.Skip(); err != nil {
					return err
				}
				continue
			}
			var tx transactionDetails
			if err := n.dec.DecodeElement(&tx, &t); err != nil {
				return fmt.Errorf("reading a transaction: %w", err)
			}
			notice, ok, err := n.notice(e, tx)
			if err != nil {
				return err
			}
			if ok && !n.yield(notice, nil) {
				return errStopped
			}
		}
	}
}

// notice is what a transaction says of a collection, if anything.
func (n *notificationReader) notice(e *entry, tx transactionDetails) (Notice, bool, error) {
	id := strings.TrimSpace(tx.EndToEndID)
	if id == "" || id == "NOTPROVIDED" {
		return Notice{}, false, nil
	}
	out := Notice{EndToEndID: EndToEndID(id), BookingDate: e.booked, ValueDate: e.value, Account: n.account, BankReference: tx.Reference}
	if out.BankReference == "" {
		out.BankReference = e.reference
	}
	switch {
	case tx.Return != nil && (e.status == "BOOK" || e.status == "INFO"):
		out.Outcome = Returned
		out.Reason = ReturnReason(strings.TrimSpace(tx.Return.Code))
		if out.Reason == "" {
			out.Reason = ReturnReason(strings.TrimSpace(tx.Return.Proprietary))
		}
	case tx.Return == nil && e.status == "BOOK" && e.creditDebit == "CRDT" && !e.reversal && tx.CreditDebit != "DBIT":
		out.Outcome = Paid
	default:
		return Notice{}, false, nil
	}
	amount := tx.Instructed
	if amount == nil {
		amount = tx.Amount
	}
	if amount == nil {
		return Notice{}, false, fmt.Errorf("transaction %s has no amount", id)
	}
	var err error
	if out.Amount, err = amount.cents(); err != nil {
		return Notice{}, false, fmt.Errorf("transaction %s: %w", id, err)
	}
	if out.Fees, err = tx.fees(); err != nil {
		return Notice{}, false, fmt.Errorf("transaction %s's charges: %w", id, err)
	}
	return out, true, nil
}

// fees are the charges of a transaction: their total when the bank gives
// it, else the sum of its records.
func (tx transactionDetails) fees() (int64, error) {
	if tx.ChargesTotal != nil {
		return tx.ChargesTotal.cents()
	}
	var sum int64
	for _, c := range tx.Charges {
		fee, err := c.Amount.cents()
		if err != nil {
			return 0, err
		}
		sum += fee
	}
	return sum, nil
}

// cents reads a euro amount ("119", "119.5", "119.00") into cents.
func (a amountElement) cents() (int64, error) {
	if a.Ccy != "EUR" {
		return 0, fmt.Errorf("the amount is in %q, not EUR", a.Ccy)
	}
	v := strings.TrimSpace(a.Value)
	whole, frac, _ := strings.Cut(v, ".")
	if len(frac) > 2 || whole == "" {
		return 0, fmt.Errorf("the amount %q is not in euro and cents", v)
	}
	frac += strings.Repeat("0", 2-len(frac))
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil || w < 0 || f < 0 || w > maxAmount/100 {
		return 0, fmt.Errorf("the amount %q is not in euro and cents", v)
	}
	return w*100 + f, nil
}

// date is the day of a date, or of a date and time.
func (c dateChoice) date() (civil.Date, error) {
	if c.Date != "" {
		return civil.ParseDate(strings.TrimSpace(c.Date))
	}
	if c.DateTime == "" {
		return civil.Date{}, nil
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(c.DateTime))
	if err != nil {
		// ISO dates and times may come without an offset: the bank's day.
		t, err = time.Parse("2006-01-02T15:04:05", strings.TrimSpace(c.DateTime))
	}
	if err != nil {
		return civil.Date{}, fmt.Errorf("%q is not a date and time", c.DateTime)
	}
	return civil.DateOf(t), nil
}
