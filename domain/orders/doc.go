// Package orders is the order domain: an order's document (what it copies
// from its offer and its seller when it is created), its assets (one per
// unit to ship), its statuses, the allocation of a shipment to assets, and
// the rows an order is stored as. The order workflow (workflows/order) owns
// the statuses; the services package talks to it; the api package renders
// the Seller API's views.
package orders
