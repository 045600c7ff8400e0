package collections

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"iter"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
)

// fileKey is what one pain.008 file holds: a run's items of one
// contractual entity's creditor account, creditor identifier and scheme.
type fileKey struct {
	Entity, CreditorID, Scheme string
}

// filePlan is a file's key with its blocks' totals.
type filePlan struct {
	key  fileKey
	plan sepa.Plan[sepa.DebitGroup]
}

// plansOf groups a run's blocks (ordered by file, then sequence type) into
// its files' plans.
func plansOf(blocks []dbgen.ListCollectionRunBlocksRow, collection civil.Date) []filePlan {
	var files []filePlan
	for _, b := range blocks {
		k := fileKey{Entity: b.ContractualEntity, CreditorID: b.CreditorID, Scheme: b.Scheme}
		if len(files) == 0 || files[len(files)-1].key != k {
			files = append(files, filePlan{key: k})
		}
		f := &files[len(files)-1]
		g := sepa.Group[sepa.DebitGroup]{
			Key:    sepa.DebitGroup{CollectionDate: collection, Sequence: sepa.SequenceType(b.SequenceType)},
			Totals: sepa.Totals{Count: int(b.Count), Sum: b.Sum},
		}
		f.plan.Groups = append(f.plan.Groups, g)
		f.plan.Count += g.Count
		f.plan.Sum += g.Sum
	}
	return files
}

// WriteFiles writes a planned run's pain.008 files, one per creditor
// account and scheme, each streamed from the database into the blob store
// (memory stays flat in the number of items), and records them. A
// rewritten file (a resumed run) has the same id, message id and content.
func (r *Runner) WriteFiles(ctx context.Context, runID uuid.UUID) ([]dbgen.CollectionFile, error) {
	run, err := r.Store.GetCollectionRun(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("collection run %s: %w", runID, err)
	}
	blocks, err := r.Store.ListCollectionRunBlocks(ctx, runID)
	if err != nil {
		return nil, err
	}
	collection := civil.DateOf(run.CollectionDate)
	var files []dbgen.CollectionFile
	for _, fp := range plansOf(blocks, collection) {
		f, err := r.writeFile(ctx, run, fp)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, r.Store.FinishCollectionRun(ctx, runID)
}

// writeFile writes and records one file, and links its items to it.
func (r *Runner) writeFile(ctx context.Context, run dbgen.CollectionRun, fp filePlan) (dbgen.CollectionFile, error) {
	creditor, err := r.Creditors(fp.key.Entity)
	if err != nil {
		return dbgen.CollectionFile{}, err
	}
	if string(creditor.ID) != fp.key.CreditorID {
		// The mandates name the identifier the customer signed for; a
		// file under another would be refused by the debtors' banks.
		return dbgen.CollectionFile{}, fmt.Errorf("the mandates of %q name the creditor identifier %s, the configuration %s",
			fp.key.Entity, fp.key.CreditorID, creditor.ID)
	}
	id := uuid.NewSHA1(run.ID, []byte(fp.key.Entity+"/"+fp.key.CreditorID+"/"+fp.key.Scheme))
	head := sepa.DirectDebitFile{
		MessageID:    messageID(civil.DateOf(run.RunDate), id),
		CreatedAt:    run.StartedAt,
		Creditor:     creditor.Account,
		CreditorID:   creditor.ID,
		Scheme:       sepa.Scheme(fp.key.Scheme),
		BatchBooking: true,
	}
	key := blobKey(civil.DateOf(run.RunDate), head.MessageID)
	size, digest, err := r.store(ctx, key, func(w io.Writer) error {
		return sepa.WriteDirectDebits(w, head, fp.plan, r.debits(ctx, run, fp.key, creditor))
	})
	if err != nil {
		return dbgen.CollectionFile{}, fmt.Errorf("pain.008 file %s: %w", head.MessageID, err)
	}
	var sequences []string
	for _, g := range fp.plan.Groups {
		sequences = append(sequences, string(g.Key.Sequence))
	}
	var saved dbgen.CollectionFile
	err = r.Store.InTx(ctx, func(q *dbgen.Queries) error {
		saved, err = q.SaveCollectionFile(ctx, dbgen.SaveCollectionFileParams{
			ID: id, RunID: run.ID, ContractualEntity: fp.key.Entity, CreditorID: fp.key.CreditorID, Scheme: fp.key.Scheme,
			MessageID: head.MessageID, SequenceTypes: sequences, NbOfTxs: int32(fp.plan.Count), CtrlSum: fp.plan.Sum,
			BlobKey: key, Size: size, Sha256: digest,
		})
		if err != nil {
			return err
		}
		_, err = q.SetCollectionItemsFile(ctx, dbgen.SetCollectionItemsFileParams{
			FileID: &id, RunID: run.ID, ContractualEntity: fp.key.Entity, CreditorID: fp.key.CreditorID, Scheme: fp.key.Scheme,
		})
		return err
	})
	return saved, err
}

// messageID is a file's message id: TNR, the run date and the file id's
// first 12 hexadecimal digits: 24 of the 30 characters allowed.
func messageID(runDate civil.Date, file uuid.UUID) string {
	return "TNR" + strings.ReplaceAll(runDate.String(), "-", "") + "-" + strings.ToUpper(hex.EncodeToString(file[:6]))
}

// blobKey is where a file is kept in the blob store.
func blobKey(runDate civil.Date, messageID string) string {
	return "collections/" + runDate.String() + "/" + messageID + ".xml"
}

// store writes a blob through write and keeps it only when write
// succeeds; it answers the blob's size and SHA-256.
func (r *Runner) store(ctx context.Context, key string, write func(io.Writer) error) (int64, string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := r.Bucket.NewWriter(ctx, key, nil)
	if err != nil {
		return 0, "", err
	}
	h := sha256.New()
	counter := &countingWriter{w: io.MultiWriter(w, h)}
	if err := write(counter); err != nil {
		cancel() // the blob is thrown away
		_ = w.Close()
		return 0, "", err
	}
	if err := w.Close(); err != nil {
		return 0, "", err
	}
	return counter.n, hex.EncodeToString(h.Sum(nil)), nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

// Write writes and counts.
func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// fileItems are a file's items with their mandates, in the plan's order:
// by sequence type, then end-to-end id. It is read by hand, row by row,
// because sqlc's :many would hold a whole file's rows in memory.
const fileItems = `
SELECT i.end_to_end_id, i.amount, i.sequence_type, i.installment_number, i.mandate_id,
       m.reference, m.signed_at, m.account_holder, m.iban_sealed, m.bic
FROM collection_items i JOIN mandates m ON m.id = i.mandate_id
WHERE i.run_id = $1 AND i.contractual_entity = $2 AND i.creditor_id = $3 AND i.scheme = $4
ORDER BY i.sequence_type, i.end_to_end_id`

// debits streams a file's collections from the database; each pass of
// the writer runs the query again (the run's items do not change once
// submitted).
func (r *Runner) debits(ctx context.Context, run dbgen.CollectionRun, k fileKey, creditor Creditor) iter.Seq2[sepa.DirectDebit, error] {
	collection := civil.DateOf(run.CollectionDate)
	return func(yield func(sepa.DirectDebit, error) bool) {
		rows, err := r.Store.Pool.Query(ctx, fileItems, run.ID, k.Entity, k.CreditorID, k.Scheme)
		if err != nil {
			yield(sepa.DirectDebit{}, err)
			return
		}
		defer rows.Close()
		var it fileItem
		for rows.Next() {
			if err := rows.Scan(&it.endToEnd, &it.amount, &it.sequence, &it.installment, &it.mandate,
				&it.reference, &it.signedAt, &it.holder, &it.sealed, &it.bic); err != nil {
				yield(sepa.DirectDebit{}, err)
				return
			}
			d, err := it.debit(creditor, collection)
			if !yield(d, err) || err != nil {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(sepa.DirectDebit{}, err)
		}
	}
}

// fileItem is one row of fileItems.
type fileItem struct {
	endToEnd    string
	amount      int64
	sequence    string
	installment *int32
	mandate     uuid.UUID
	reference   string
	signedAt    time.Time
	holder      string
	sealed      []byte
	bic         string
}

// debit is the item as a collection: the debtor's IBAN opened with the
// creditor's key ring (sealed bound to the mandate's id).
func (it fileItem) debit(creditor Creditor, collection civil.Date) (sepa.DirectDebit, error) {
	plain, err := creditor.IBANs.Open(it.sealed, it.mandate[:])
	if err != nil {
		return sepa.DirectDebit{}, fmt.Errorf("the IBAN of mandate %s does not open: %w", it.mandate, err)
	}
	iban, err := sepa.ParseIBAN(string(plain))
	if err != nil {
		return sepa.DirectDebit{}, fmt.Errorf("mandate %s: %w", it.mandate, err)
	}
	remittance := "Rental charge"
	if it.installment != nil {
		remittance = fmt.Sprintf("Rental installment %d", *it.installment)
	}
	return sepa.DirectDebit{
		EndToEndID:     sepa.EndToEndID(it.endToEnd),
		Amount:         it.amount,
		Mandate:        sepa.MandateReference(it.reference),
		MandateSigned:  civil.DateOf(it.signedAt.UTC()),
		Sequence:       sepa.SequenceType(it.sequence),
		CollectionDate: collection,
		DebtorName:     it.holder,
		DebtorIBAN:     iban,
		DebtorBIC:      sepa.BIC(it.bic),
		Remittance:     remittance + " " + it.endToEnd,
	}, nil
}

// Open reads a stored file.
func (r *Runner) Open(ctx context.Context, file dbgen.CollectionFile) (io.ReadCloser, error) {
	return r.Bucket.NewReader(ctx, file.BlobKey, nil)
}
