package orders

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db/dbgen"
)

// Stored is an order's row with the rows that hang off it.
type Stored struct {
	Order        dbgen.Order
	Assets       []dbgen.OrderAsset
	TrackingURLs []string
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
	return Stored{Order: order, Assets: assets, TrackingURLs: urls}, nil
}

// Render is the order as GET /v1/orders/{id} returns it and as the order
// webhooks send it.
func Render(s Stored) (sellerapi.Order, error) {
	var d Document
	if err := json.Unmarshal(s.Order.Document, &d); err != nil {
		return sellerapi.Order{}, fmt.Errorf("order %s has an unreadable document: %w", s.Order.ID, err)
	}
	metadata, err := metadataOf(s.Order)
	if err != nil {
		return sellerapi.Order{}, err
	}
	assets, err := renderAssets(s.Assets)
	if err != nil {
		return sellerapi.Order{}, err
	}
	urls := s.TrackingURLs
	if urls == nil {
		urls = []string{}
	}
	return sellerapi.Order{
		Assets:               assets,
		CanceledAt:           s.Order.CanceledAt,
		CreatedAt:            s.Order.CreatedAt,
		CustomerInfo:         d.CustomerInfo,
		Id:                   s.Order.ID.String(),
		Metadata:             metadata,
		OfferCreatedAt:       s.Order.OfferCreatedAt,
		OfferId:              s.Order.OfferID.String(),
		OrderLines:           d.OrderLines,
		SalesAgent:           d.SalesAgent,
		SellerInfo:           d.SellerInfo,
		SellerOfferReference: s.Order.SellerOfferReference,
		ShippingAddress:      d.ShippingAddress,
		ShippingInfo:         d.ShippingInfo,
		Status:               sellerapi.OrderStatus(s.Order.Status),
		TrackingUrls:         urls,
	}, nil
}

// Summarize is the short form the order operations (acknowledge, accept,
// reject, set metadata) answer with.
func Summarize(s Stored) (sellerapi.OrderSummary, error) {
	metadata, err := metadataOf(s.Order)
	if err != nil {
		return sellerapi.OrderSummary{}, err
	}
	assets, err := renderAssets(s.Assets)
	if err != nil {
		return sellerapi.OrderSummary{}, err
	}
	return sellerapi.OrderSummary{
		Assets:               assets,
		Id:                   s.Order.ID.String(),
		Metadata:             metadata,
		OfferId:              s.Order.OfferID.String(),
		SellerOfferReference: s.Order.SellerOfferReference,
		Status:               sellerapi.OrderStatus(s.Order.Status),
	}, nil
}

func metadataOf(o dbgen.Order) (*map[string]string, error) {
	metadata := map[string]string{}
	if err := json.Unmarshal(o.Metadata, &metadata); err != nil {
		return nil, fmt.Errorf("order %s has unreadable metadata: %w", o.ID, err)
	}
	return &metadata, nil
}

func renderAssets(rows []dbgen.OrderAsset) ([]sellerapi.OrderAsset, error) {
	assets := make([]sellerapi.OrderAsset, len(rows))
	for i, a := range rows {
		var refs []sellerapi.SellerProductReference
		if err := json.Unmarshal(a.SellerProductReferences, &refs); err != nil {
			return nil, fmt.Errorf("asset %s has unreadable references: %w", a.ID, err)
		}
		productID := ""
		if a.ProductID != nil {
			productID = a.ProductID.String()
		}
		assets[i] = sellerapi.OrderAsset{
			Id:                      a.ID.String(),
			ProductId:               productID,
			SellerProductReferences: refs,
			SerialNumber:            a.SerialNumber,
			Status:                  sellerapi.OrderAssetStatus(a.Status),
			Title:                   a.Title,
			TrackingUrl:             a.TrackingUrl,
		}
	}
	return assets, nil
}
