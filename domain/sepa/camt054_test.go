package sepa

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
)

// readAll reads every notice of a notification file.
func readAll(t *testing.T, r io.Reader) ([]Notice, error) {
	t.Helper()
	var out []Notice
	for n, err := range ReadNotifications(r) {
		if err != nil {
			return out, err
		}
		out = append(out, n)
	}
	return out, nil
}

// readFixture reads a hand-written notification, after checking it is
// valid against the official schema.
func readFixture(t *testing.T, name string) []Notice {
	t.Helper()
	xmllint.ValidateFile(t, schema("camt.054.001.08.xsd"), schema(name))
	f, err := os.Open(schema(name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	notices, err := readAll(t, f)
	if err != nil {
		t.Fatal(err)
	}
	return notices
}

func TestReadNotificationsFindsReturnsWithTheirReasons(t *testing.T) {
	notices := readFixture(t, "camt054-returns.xml")
	account := mustIBAN(t, "DE02120300000000202051")
	want := []struct {
		id        EndToEndID
		amount    int64
		fees      int64
		reason    ReturnReason
		represent bool
		booked    string
		value     string
		reference string
	}{
		{"0190F3A27B1C7DEF8A123456789ABC01-1", 11900, 300, "AM04", true, "2026-12-04", "2026-12-01", "BANKREF-RET-0001-1"},
		{"0190F3A27B1C7DEF8A123456789ABC02-1", 4999, 400, "MD01", false, "2026-12-04", "2026-12-01", "BANKREF-RET-0001"},
		{"0190F3A27B1C7DEF8A123456789ABC03-2", 1234, 0, "AC04", false, "2026-12-04", "", "BANKREF-RET-0002"},
		{"0190F3A27B1C7DEF8A123456789ABC04-1", 123456, 0, "ZZ07", false, "", "", "BANKREF-REJ-0003"},
	}
	if len(notices) != len(want) {
		t.Fatalf("%d notices, want %d: %+v", len(notices), len(want), notices)
	}
	for i, w := range want {
		n := notices[i]
		if n.Outcome != Returned || n.EndToEndID != w.id || n.Amount != w.amount || n.Fees != w.fees || n.Reason != w.reason ||
			n.Reason.MayRepresent() != w.represent || dateText(n.BookingDate) != w.booked || dateText(n.ValueDate) != w.value ||
			n.BankReference != w.reference || !n.Account.Equal(account) {
			t.Errorf("notice %d: %+v, want %+v", i, n, w)
		}
	}
	if notices[3].Reason.Known() || notices[3].Reason.Meaning() != "an unknown reason code" {
		t.Errorf("a proprietary code is known: %s", notices[3].Reason.Meaning())
	}
}

func TestReadNotificationsFindsBookedCredits(t *testing.T) {
	notices := readFixture(t, "camt054-credits.xml")
	want := []struct {
		id     EndToEndID
		amount int64
		booked string
		ref    string
	}{
		{"0190F3A27B1C7DEF8A123456789ABC01-1", 11900, "2026-12-01", "BANKREF-CRD-0001-1"},
		{"0190F3A27B1C7DEF8A123456789ABC02-1", 4999, "2026-12-01", "BANKREF-CRD-0001-2"},
		{"0190F3A27B1C7DEF8A123456789ABC03-2", 123456, "2026-12-01", "BANKREF-CRD-0001"},
		{"0190F3A27B1C7DEF8A123456789ABC05-1", maxAmount, "2026-12-02", "BANKREF-CRD-0002"},
	}
	if len(notices) != len(want) {
		t.Fatalf("%d notices, want %d: %+v", len(notices), len(want), notices)
	}
	for i, w := range want {
		n := notices[i]
		if n.Outcome != Paid || n.EndToEndID != w.id || n.Amount != w.amount || n.Fees != 0 || n.Reason != "" ||
			dateText(n.BookingDate) != w.booked || n.BankReference != w.ref || n.Account.Unmasked() != "DE02120300000000202051" {
			t.Errorf("notice %d: %+v, want %+v", i, n, w)
		}
	}
}

// dateText is a date's text, "" for no date.
func dateText(d civil.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

func TestReadNotificationsRefusesWhatItCannotRead(t *testing.T) {
	const head = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>M</MsgId><CreDtTm>2026-12-01T00:00:00</CreDtTm></GrpHdr><Ntfctn><Id>N</Id><Acct><Id><IBAN>DE02120300000000202051</IBAN></Id></Acct>`
	const tail = `</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`
	credit := func(amount string) string {
		return `<Ntry><Amt Ccy="EUR">1</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BkTxCd/><NtryDtls><TxDtls><Refs><EndToEndId>E2E-1</EndToEndId></Refs>` + amount + `</TxDtls></NtryDtls></Ntry>`
	}
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"empty", "", "the file is empty"},
		{"another message", `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"></Document>`, "not a camt.054.001.08 notification: it starts with <Document> in namespace \"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\""},
		{"an older version", `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.02"></Document>`, "not a camt.054.001.08 notification"},
		{"HTML", `<html><body>Login</body></html>`, "it starts with <html>"},
		{"broken XML", head + `<Ntry><Amt>`, "not well-formed XML"},
		{"another currency", head + credit(`<Amt Ccy="CHF">10.00</Amt>`) + tail, `transaction E2E-1: the amount is in "CHF", not EUR`},
		{"three decimals", head + credit(`<Amt Ccy="EUR">10.001</Amt>`) + tail, `the amount "10.001" is not in euro and cents`},
		{"a negative amount", head + credit(`<Amt Ccy="EUR">-10.00</Amt>`) + tail, `the amount "-10.00" is not in euro and cents`},
		{"no amount", head + credit(``) + tail, "transaction E2E-1 has no amount"},
		{"a broken IBAN", strings.Replace(head, "DE02120300000000202051", "DE02120300000000202052", 1) + tail, "the notified account: invalid IBAN"},
	} {
		notices, err := readAll(t, strings.NewReader(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (%d notices), want %q", tc.name, err, len(notices), tc.want)
		}
	}
	notices, err := readAll(t, strings.NewReader(head+credit(`<Amt Ccy="EUR">10.5</Amt>`)+tail))
	if err != nil || len(notices) != 1 || notices[0].Amount != 1050 {
		t.Errorf("one decimal: %+v, %v", notices, err)
	}
}

func TestReadNotificationsStopsWhenTheCallerDoes(t *testing.T) {
	f, err := os.Open(schema("camt054-credits.xml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	count := 0
	for _, err := range ReadNotifications(f) {
		if err != nil {
			t.Fatal(err)
		}
		count++
		break
	}
	if count != 1 {
		t.Errorf("read %d after stopping at the first", count)
	}
}

// generatedNotification writes a notification of one booked batch of n
// credited collections, as a stream.
func generatedNotification(n int) io.Reader {
	r, w := io.Pipe()
	go func() {
		fmt.Fprint(w, `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>M</MsgId><CreDtTm>2026-12-01T00:00:00</CreDtTm></GrpHdr><Ntfctn><Id>N</Id><Acct><Id><IBAN>DE02120300000000202051</IBAN></Id></Acct>`)
		fmt.Fprint(w, `<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-12-01</Dt></BookgDt><BkTxCd/><NtryDtls>`)
		for i := range n {
			fmt.Fprintf(w, `<TxDtls><Refs><EndToEndId>E2E-%d</EndToEndId></Refs><Amt Ccy="EUR">%d.%02d</Amt><CdtDbtInd>CRDT</CdtDbtInd></TxDtls>`, i, 10+i%1000, i%100)
		}
		fmt.Fprint(w, `</NtryDtls></Ntry></Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`)
		w.Close()
	}()
	return r
}

// A notification ten times longer needs no more memory: one transaction
// is held at a time.
func TestReadingNotificationsKeepsMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 110,000 transactions")
	}
	peak := func(n int) uint64 {
		var top uint64
		count := 0
		for notice, err := range ReadNotifications(generatedNotification(n)) {
			if err != nil {
				t.Fatal(err)
			}
			if notice.Outcome != Paid {
				t.Fatalf("%+v", notice)
			}
			if count%5000 == 0 {
				runtime.GC()
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				top = max(top, m.HeapAlloc)
			}
			count++
		}
		if count != n {
			t.Fatalf("read %d of %d", count, n)
		}
		return top
	}
	small, large := peak(10_000), peak(100_000)
	t.Logf("live heap at most %d KiB reading 10,000 transactions, %d KiB reading 100,000", small>>10, large>>10)
	if large > small+1<<20 {
		t.Errorf("the live heap grew from %d KiB to %d KiB", small>>10, large>>10)
	}
}

func TestReturnReasonsSayWhetherToCollectAgain(t *testing.T) {
	for code, want := range map[ReturnReason]bool{
		"AM04": true, "MS03": true, "TM01": true, "ED05": true,
		"AC01": false, "AC04": false, "AC06": false, "AG01": false, "MD01": false, "MD02": false,
		"MD06": false, "MD07": false, "MS02": false, "SL01": false, "BE05": false, "RR04": false,
		"": false, "XX99": false,
	} {
		if got := code.MayRepresent(); got != want {
			t.Errorf("%s (%s): collect again %v, want %v", code, code.Meaning(), got, want)
		}
	}
	for code, info := range returnReasons {
		if len(code) != 4 || info.meaning == "" || !code.Known() {
			t.Errorf("%q: %+v", code, info)
		}
	}
	if ReturnReason("AC04").Meaning() != "the account is closed" || ReturnReason("MS02").Meaning() != "refused by the debtor" {
		t.Error("meanings")
	}
}
