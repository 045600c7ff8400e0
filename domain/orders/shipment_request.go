package orders

// SerialNumber assigns a serial number to one unit of a product; an empty
// serial number ships an item that has none (an accessory).
type SerialNumber struct {
	Source       string
	Reference    string
	SerialNumber string
}

// Shipment reports items of an order as shipped.
type Shipment struct {
	SerialNumbers []SerialNumber
	TrackingURL   string
	Metadata      map[string]string
}
