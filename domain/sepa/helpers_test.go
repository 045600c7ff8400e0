package sepa

import (
	"fmt"
	"iter"
	"path/filepath"
	"testing"
	"time"

	"github.com/tenurehq/tenure/foundation/civil"
)

// schema is the path of a vendored XSD.
func schema(name string) string { return filepath.Join("testdata", name) }

// germanIBAN is a valid German IBAN of an account number at a bank code.
func germanIBAN(t testing.TB, bank string, account int) IBAN {
	t.Helper()
	bban := bank + fmt.Sprintf("%010d", account)
	iban, err := ParseIBAN(fmt.Sprintf("DE%02d%s", checkDigits(bban, "DE"), bban))
	if err != nil {
		t.Fatal(err)
	}
	return iban
}

// mustIBAN parses an IBAN of the tests.
func mustIBAN(t testing.TB, s string) IBAN {
	t.Helper()
	iban, err := ParseIBAN(s)
	if err != nil {
		t.Fatal(err)
	}
	return iban
}

// testHolder is the account holder of the tests' files.
func testHolder(t testing.TB) AccountHolder {
	return AccountHolder{
		Name: "Tenure Finanz GmbH & Co. KG",
		IBAN: mustIBAN(t, "DE02120300000000202051"),
		BIC:  "BYLADEM1001",
	}
}

// testCreditorID is the creditor identifier of the tests' files.
const testCreditorID CreditorID = "DE98ZZZ09999999999"

// testCreated is the creation time of the tests' files.
var testCreated = time.Date(2026, 11, 25, 9, 30, 0, 0, time.FixedZone("CET", 3600))

// seq turns a slice into the iterator the writers read.
func seq[T any](items []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for _, item := range items {
			if !yield(item, nil) {
				return
			}
		}
	}
}

// generatedDebits are n collections made on the fly, none kept in memory:
// the first tenth FRST, the rest RCUR, on two collection dates; each
// group's collections come together. every is called with each index,
// for tests that sample the heap.
func generatedDebits(t testing.TB, n int, every func(i int)) iter.Seq2[DirectDebit, error] {
	dates := []civil.Date{day(t, "2026-12-01"), day(t, "2026-12-02")}
	signed := day(t, "2026-10-15")
	return func(yield func(DirectDebit, error) bool) {
		for i := range n {
			if every != nil {
				every(i)
			}
			seqType, date := Recurring, dates[1]
			switch {
			case i < n/10:
				seqType, date = First, dates[0]
			case i < n/2:
				date = dates[0]
			}
			d := DirectDebit{
				EndToEndID:     EndToEndID(fmt.Sprintf("0190F3A27B1C7DEF8A12%012d-1", i)),
				Amount:         int64(1999 + i%50000),
				Mandate:        MandateReference(fmt.Sprintf("TNR0190F3A27B1C7DEF8A12%012d", i)),
				MandateSigned:  signed,
				Sequence:       seqType,
				CollectionDate: date,
				DebtorName:     fmt.Sprintf("Kundin Nummer %d Müller", i),
				DebtorIBAN:     germanIBAN(t, "37040044", i),
				Remittance:     fmt.Sprintf("Rechnung 2026-%06d Miete Dezember 2026", i),
			}
			if !yield(d, nil) {
				return
			}
		}
	}
}
