// Package collectiontest gives tests of collections what they need
// around the collection runs: the mandates of orders, a runner over a
// blob directory with the tests' creditor, and bank notifications.
package collectiontest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"gocloud.dev/blob/fileblob"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/keyring"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/workflows/contract"
)

// The creditor of the tests' contractual entity: the Bundesbank's test
// creditor identifier, and the account the debtors pay from.
const (
	Entity     = "tenure"
	CreditorID = "DE98ZZZ09999999999"
	DebtorIBAN = "DE89370400440532013000"
)

// Invoiced posts the journal that makes an installment owed, as falling
// due does (for installments a test writes as due): the contract's
// receivable grows by its gross.
func Invoiced(t testing.TB, store *db.Store, contractID uuid.UUID, number int, gross int64) {
	t.Helper()
	err := store.InTx(t.Context(), func(q *dbgen.Queries) error {
		_, err := ledger.Post(t.Context(), q, ledger.Journal{
			Key: fmt.Sprintf("test/%s/%d/invoiced", contractID, number), Kind: "invoice", Currency: "EUR",
			Entries: []ledger.Entry{
				ledger.Debit(ledger.CustomerReceivable, gross).Contract(contractID),
				ledger.Credit(ledger.RentalRevenue, gross),
			},
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Ring is a fresh key ring for the mandates' IBANs.
func Ring(t testing.TB) *keyring.Ring {
	t.Helper()
	spec, err := keyring.GenerateSpec("k1")
	if err != nil {
		t.Fatal(err)
	}
	ring, err := keyring.Parse([]string{spec})
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

// Runner is a runner over the store whose files go to a temporary
// directory, collecting for the tests' entity with the ring.
func Runner(t testing.TB, store *db.Store, ring *keyring.Ring) *collections.Runner {
	t.Helper()
	bucket, err := fileblob.OpenBucket(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bucket.Close() })
	iban, err := sepa.ParseIBAN("DE02120300000000202051")
	if err != nil {
		t.Fatal(err)
	}
	creditor := collections.Creditor{
		Account: sepa.AccountHolder{Name: "Tenure Financing GmbH", IBAN: iban, BIC: "BYLADEM1001"},
		ID:      CreditorID,
		IBANs:   ring,
	}
	return &collections.Runner{
		Store: store, Bucket: bucket,
		Creditors: func(name string) (collections.Creditor, error) {
			if name != Entity {
				return collections.Creditor{}, fmt.Errorf("no creditor %q", name)
			}
			return creditor, nil
		},
	}
}

// Mandate writes the signed mandate of an offer's customer under a
// scheme, its IBAN sealed with the ring bound to its id, and answers its
// id.
func Mandate(t testing.TB, store *db.Store, ring *keyring.Ring, sellerID, offerID uuid.UUID, signed civil.Date, scheme sepa.Scheme) uuid.UUID {
	t.Helper()
	id := uuid.Must(uuid.NewV7())
	_, err := store.Pool.Exec(t.Context(), `
INSERT INTO mandates (id, offer_id, seller_id, contractual_entity, creditor_id, reference, scheme, account_holder, iban_sealed, iban_masked, signed_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, 'Jürgen Müller', $8, 'DE89 **** **** **** **** 00', $9)`,
		id, offerID, sellerID, Entity, CreditorID, string(sepa.MandateReferenceFor(id)), string(scheme),
		ring.Seal([]byte(DebtorIBAN), id[:]), signed.Midnight(time.UTC).Add(10*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Notice is one entry of a notification: a booked credit when Reason is
// empty, else a returned debit.
type Notice struct {
	EndToEndID string
	Cents      int64
	Reason     string
}

// Notification is a camt.054 document of the notices.
func Notification(notices ...Notice) *strings.Reader {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>M</MsgId><CreDtTm>2026-12-04T06:00:00</CreDtTm></GrpHdr><Ntfctn><Id>N</Id><Acct><Id><IBAN>DE02120300000000202051</IBAN></Id></Acct>`)
	for _, n := range notices {
		amount := fmt.Sprintf("%d.%02d", n.Cents/100, n.Cents%100)
		if n.Reason == "" {
			fmt.Fprintf(&b, `<Ntry><Amt Ccy="EUR">%s</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-12-04</Dt></BookgDt><BkTxCd/><NtryDtls><TxDtls><Refs><EndToEndId>%s</EndToEndId></Refs><Amt Ccy="EUR">%s</Amt><CdtDbtInd>CRDT</CdtDbtInd></TxDtls></NtryDtls></Ntry>`, amount, n.EndToEndID, amount)
			continue
		}
		fmt.Fprintf(&b, `<Ntry><Amt Ccy="EUR">%s</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-12-04</Dt></BookgDt><BkTxCd/><NtryDtls><TxDtls><Refs><EndToEndId>%s</EndToEndId></Refs><Amt Ccy="EUR">%s</Amt><CdtDbtInd>DBIT</CdtDbtInd><RtrInf><Rsn><Cd>%s</Cd></Rsn></RtrInf></TxDtls></NtryDtls></Ntry>`, amount, n.EndToEndID, amount, n.Reason)
	}
	b.WriteString(`</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`)
	return strings.NewReader(b.String())
}

// Running writes a contract whose term started on 1 February 2026 with
// its installments up to the day due (and invoiced), and its customer's
// signed mandate.
func Running(t testing.TB, f *contracttest.Fixture, ring *keyring.Ring, reference string, through civil.Date) {
	t.Helper()
	laptops := contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 120000, MonthlyNet: 3000, Months: 12, Rented: true}
	orderID := f.Order(t, reference, laptops)
	id := f.Confirm(t, orderID)[0]
	start := mustDate(t, "2026-02-01")
	row := contract.Transitions.Must(contracts.AwaitingDelivery, contract.Deliver)
	in := activities.ContractTransition{ContractID: id, SellerID: f.SellerID, From: row.From, To: row.To, Event: row.Event, Today: start}
	if _, err := f.Contracts.Start(t.Context(), activities.ContractStart{ContractTransition: in, On: start}); err != nil {
		t.Fatal(err)
	}
	row = contract.Transitions.Must(contracts.Running, contract.FallDue)
	in = activities.ContractTransition{ContractID: id, SellerID: f.SellerID, From: row.From, To: row.To, Event: row.Event, Today: through}
	if _, err := f.Contracts.FallDue(t.Context(), activities.ContractFallingDue{ContractTransition: in, Through: through}); err != nil {
		t.Fatal(err)
	}
	var offerID uuid.UUID
	if err := f.Store.Pool.QueryRow(t.Context(), `SELECT offer_id FROM orders WHERE id = $1`, orderID).Scan(&offerID); err != nil {
		t.Fatal(err)
	}
	Mandate(t, f.Store, ring, f.SellerID, offerID, mustDate(t, "2026-01-15"), sepa.Core)
}

// mustDate parses a date or fails the test.
func mustDate(t testing.TB, s string) civil.Date {
	t.Helper()
	d, err := civil.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
