package histories

import (
	"encoding/json"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Offer is an offers row as PostgreSQL returned it (its document apart,
// readable), what GET answered for it and the events recorded for it.
type Offer struct {
	Row      dbgen.Offer     `json:"row"`
	Document json.RawMessage `json:"document"`
	View     json.RawMessage `json:"view"`
	Events   []Event         `json:"events"`
}

// Order is an order's rows as PostgreSQL returned them (document and
// metadata apart, readable), what GET and the order operations answered
// for it and its events.
type Order struct {
	Row          dbgen.Order        `json:"row"`
	Document     json.RawMessage    `json:"document"`
	Metadata     json.RawMessage    `json:"metadata"`
	Assets       []dbgen.OrderAsset `json:"assets"`
	TrackingURLs []string           `json:"tracking_urls"`
	View         json.RawMessage    `json:"view"`
	Summary      json.RawMessage    `json:"summary"`
	Events       []Event            `json:"events"`
}

// Event is an event's type and its payload as recorded.
type Event struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}
