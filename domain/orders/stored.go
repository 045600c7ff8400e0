package orders

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/catalog"
)

// Asset statuses Tenure uses.
const (
	AssetCreated = "created"
	AssetShipped = "shipped"
)

// Asset is one unit of an order to ship.
type Asset struct {
	ID         uuid.UUID
	ProductID  *uuid.UUID
	Title      string
	References []catalog.Reference
	// RequiresSerialNumber is set for units whose product can be rented.
	RequiresSerialNumber bool
	Status               string
	SerialNumber         *string
	TrackingURL          *string
}

// Stored is an order as PostgreSQL holds it: its row (status, metadata,
// moments), its document, its assets and the tracking links of its
// shipments.
type Stored struct {
	Row          dbgen.Order
	Document     Document
	Metadata     map[string]string
	Assets       []Asset
	TrackingURLs []string
}

// Decode reads an order's rows, its document of any version this code
// knows.
func Decode(row dbgen.Order, assets []dbgen.OrderAsset, trackingURLs []string) (Stored, error) {
	s := Stored{Row: row, TrackingURLs: trackingURLs}
	if err := json.Unmarshal(row.Document, &s.Document); err != nil {
		return Stored{}, fmt.Errorf("order %s has an unreadable document: %w", row.ID, err)
	}
	if s.Document.Version > DocumentVersion {
		return Stored{}, fmt.Errorf("order %s has a document of version %d, newer than this code's %d", row.ID, s.Document.Version, DocumentVersion)
	}
	s.Metadata = map[string]string{} // stays empty for a JSON null
	if err := json.Unmarshal(row.Metadata, &s.Metadata); err != nil {
		return Stored{}, fmt.Errorf("order %s has unreadable metadata: %w", row.ID, err)
	}
	var err error
	if s.Assets, err = AssetsOf(assets); err != nil {
		return Stored{}, err
	}
	if s.TrackingURLs == nil {
		s.TrackingURLs = []string{}
	}
	return s, nil
}

// AssetsOf reads asset rows.
func AssetsOf(rows []dbgen.OrderAsset) ([]Asset, error) {
	assets := make([]Asset, len(rows))
	for i, a := range rows {
		var refs []catalog.Reference
		if err := json.Unmarshal(a.SellerProductReferences, &refs); err != nil {
			return nil, fmt.Errorf("asset %s has unreadable references: %w", a.ID, err)
		}
		assets[i] = Asset{
			ID: a.ID, ProductID: a.ProductID, Title: a.Title, References: refs,
			RequiresSerialNumber: a.RequiresSerialNumber, Status: a.Status, SerialNumber: a.SerialNumber, TrackingURL: a.TrackingUrl,
		}
	}
	return assets, nil
}

// Load reads an order of a seller with its assets and tracking links; a
// missing order (or another seller's) is the query's no-rows error.
func Load(ctx context.Context, q *dbgen.Queries, sellerID, orderID uuid.UUID) (Stored, error) {
	order, err := q.GetOrder(ctx, dbgen.GetOrderParams{SellerID: sellerID, ID: orderID})
	if err != nil {
		return Stored{}, err
	}
	assets, err := q.ListOrderAssets(ctx, orderID)
	if err != nil {
		return Stored{}, err
	}
	urls, err := q.ListTrackingURLs(ctx, orderID)
	if err != nil {
		return Stored{}, err
	}
	return Decode(order, assets, urls)
}
