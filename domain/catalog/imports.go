package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/idempotency"
)

// Product batch import limits and statuses.
const (
	// SyncBelow is the batch size from which imports run in the
	// background: smaller batches are imported during the request.
	SyncBelow = 10
	// SampleSize is how many rejections an import result lists.
	SampleSize = 20
	// ChunkSize is how many products one transaction of a background
	// import stores.
	ChunkSize = 100
)

// ImportStatus is the state of a product batch import.
type ImportStatus string

// The statuses of the contract.
const (
	ImportCreated   ImportStatus = "created"
	ImportStarted   ImportStatus = "started"
	ImportCompleted ImportStatus = "completed"
	ImportFailed    ImportStatus = "failed"
)

// Summary counts an import's products and keeps its first rejections.
type Summary struct {
	Total    int         `json:"total"`
	Imported int         `json:"imported"`
	Rejected int         `json:"rejected"`
	Sample   []Rejection `json:"sample"`
}

// reject counts rejections and keeps the SampleSize with the lowest batch
// positions, whatever order they come in.
func (s *Summary) reject(rs ...Rejection) {
	s.Rejected += len(rs)
	s.Sample = append(s.Sample, rs...)
	slices.SortStableFunc(s.Sample, func(a, b Rejection) int { return a.Index - b.Index })
	if len(s.Sample) > SampleSize {
		s.Sample = s.Sample[:SampleSize]
	}
}

// status is completed when something was imported, failed otherwise.
func (s Summary) status() ImportStatus {
	if s.Imported > 0 {
		return ImportCompleted
	}
	return ImportFailed
}

// ImportResult is an import's id, status and, once finished, summary.
type ImportResult struct {
	ID      uuid.UUID
	Status  ImportStatus
	Summary Summary
}

// Imports runs product batch imports and remembers their results.
type Imports struct {
	Store    *db.Store
	Importer Importer
}

// ErrImportNotFound says no import has that id for the seller.
var ErrImportNotFound = errors.New("no such product import")

// ImportNow validates and stores a batch in one transaction, recording the
// import as completed (or failed when every product was rejected).
func (x Imports) ImportNow(ctx context.Context, sellerID uuid.UUID, products []ProductInput) (ImportResult, error) {
	seller, err := x.Store.GetSeller(ctx, sellerID)
	if err != nil {
		return ImportResult{}, err
	}
	valid, rejections := ValidateBatch(products, seller.Currency)
	result := ImportResult{ID: idempotency.NewID(ctx), Summary: Summary{Total: len(products)}}
	result.Summary.reject(rejections...)
	err = x.Store.InTx(ctx, func(q *dbgen.Queries) error {
		imported, refused, err := x.Importer.Upsert(ctx, q, sellerID, valid)
		if err != nil {
			return err
		}
		result.Summary.Imported = imported
		result.Summary.reject(refused...)
		result.Status = result.Summary.status()
		params, err := importRow(result, sellerID, nil)
		if err != nil {
			return err
		}
		return q.CreateProductImport(ctx, params)
	})
	return result, err
}

// Accept records a batch for a background import and calls start (which
// starts the import's workflow) before committing, so an accepted import
// always has a workflow and a started workflow finds its import unless
// the commit failed.
func (x Imports) Accept(ctx context.Context, sellerID uuid.UUID, products []ProductInput, start func(context.Context, uuid.UUID) error) (ImportResult, error) {
	payload, err := json.Marshal(products)
	if err != nil {
		return ImportResult{}, err
	}
	result := ImportResult{ID: idempotency.NewID(ctx), Status: ImportCreated, Summary: Summary{Total: len(products)}}
	err = x.Store.InTx(ctx, func(q *dbgen.Queries) error {
		params, err := importRow(result, sellerID, payload)
		if err != nil {
			return err
		}
		if err := q.CreateProductImport(ctx, params); err != nil {
			return err
		}
		return start(ctx, result.ID)
	})
	return result, err
}

func importRow(r ImportResult, sellerID uuid.UUID, payload []byte) (dbgen.CreateProductImportParams, error) {
	sample, err := jsonList(r.Summary.Sample)
	return dbgen.CreateProductImportParams{
		ID:               r.ID,
		SellerID:         sellerID,
		Status:           string(r.Status),
		TotalProducts:    int32(r.Summary.Total),
		ImportedProducts: int32(r.Summary.Imported),
		RejectedProducts: int32(r.Summary.Rejected),
		SampleRejected:   sample,
		Payload:          payload,
	}, err
}

// Get returns an import of the seller.
func (x Imports) Get(ctx context.Context, sellerID, id uuid.UUID) (ImportResult, error) {
	row, err := x.Store.GetProductImport(ctx, dbgen.GetProductImportParams{ID: id, SellerID: sellerID})
	if db.IsNotFound(err) {
		return ImportResult{}, ErrImportNotFound
	}
	if err != nil {
		return ImportResult{}, err
	}
	result := ImportResult{ID: row.ID, Status: ImportStatus(row.Status), Summary: Summary{
		Total: int(row.TotalProducts), Imported: int(row.ImportedProducts), Rejected: int(row.RejectedProducts),
	}}
	if err := json.Unmarshal(row.SampleRejected, &result.Summary.Sample); err != nil {
		return ImportResult{}, fmt.Errorf("reading the rejections of import %s: %w", id, err)
	}
	return result, nil
}

// Progress is how far a background import got: the chunks stored so far
// and what they yielded. It is small enough for a heartbeat.
type Progress struct {
	// Chunks is how many chunks of valid products are stored.
	Chunks   int         `json:"chunks"`
	Imported int         `json:"imported"`
	Rejected int         `json:"rejected"`
	Sample   []Rejection `json:"sample"`
}

// Run imports a recorded batch in chunks of ChunkSize products, one
// transaction each, continuing after the chunks from (nil to start over)
// and reporting each stored chunk to heartbeat. Running it again, or
// after it finished, yields the same catalog and the same result.
func (x Imports) Run(ctx context.Context, id uuid.UUID, from *Progress, heartbeat func(Progress)) (ImportResult, error) {
	row, err := x.Store.ProductImportPayload(ctx, id)
	if db.IsNotFound(err) {
		return ImportResult{}, ErrImportNotFound
	}
	if err != nil {
		return ImportResult{}, err
	}
	if s := ImportStatus(row.Status); s == ImportCompleted || s == ImportFailed {
		return x.Get(ctx, row.SellerID, id)
	}
	var products []ProductInput
	if err := json.Unmarshal(row.Payload, &products); err != nil {
		return ImportResult{}, fmt.Errorf("reading the products of import %s: %w", id, err)
	}
	seller, err := x.Store.GetSeller(ctx, row.SellerID)
	if err != nil {
		return ImportResult{}, err
	}
	if err := x.Store.StartProductImport(ctx, id); err != nil {
		return ImportResult{}, err
	}
	valid, rejections := ValidateBatch(products, seller.Currency)
	progress := Progress{}
	if from != nil {
		progress = *from
	}
	for start := progress.Chunks * ChunkSize; start < len(valid); start += ChunkSize {
		chunk := valid[start:min(start+ChunkSize, len(valid))]
		err := x.Store.InTx(ctx, func(q *dbgen.Queries) error {
			imported, refused, err := x.Importer.Upsert(ctx, q, row.SellerID, chunk)
			if err != nil {
				return err
			}
			s := Summary{Sample: progress.Sample, Rejected: progress.Rejected}
			s.reject(refused...)
			progress = Progress{Chunks: progress.Chunks + 1, Imported: progress.Imported + imported, Rejected: s.Rejected, Sample: s.Sample}
			return nil
		})
		if err != nil {
			return ImportResult{}, err
		}
		heartbeat(progress)
	}
	summary := Summary{Total: len(products), Imported: progress.Imported, Rejected: progress.Rejected, Sample: progress.Sample}
	summary.reject(rejections...)
	result := ImportResult{ID: id, Status: summary.status(), Summary: summary}
	sample, err := jsonList(summary.Sample)
	if err != nil {
		return ImportResult{}, err
	}
	err = x.Store.FinishProductImport(ctx, dbgen.FinishProductImportParams{
		ID: id, Status: string(result.Status), ImportedProducts: int32(summary.Imported),
		RejectedProducts: int32(summary.Rejected), SampleRejected: sample,
	})
	return result, err
}

// Fail marks an import failed that could not be run to its end (its
// workflow gave up); an import that finished keeps its result.
func (x Imports) Fail(ctx context.Context, id uuid.UUID) error {
	return x.Store.FailProductImport(ctx, id)
}
