package order

// Status is where an order is in its lifecycle.
type Status string

// The statuses of the spec's order transition table.
const (
	Created            Status = "created"
	Acknowledged       Status = "acknowledged"
	Confirmed          Status = "confirmed"
	PartiallyFulfilled Status = "partially_fulfilled"
	Completed          Status = "completed"
	Canceled           Status = "canceled"
	Rejected           Status = "rejected"
)

// Final reports whether no transition leaves the status.
func (s Status) Final() bool {
	return s == Completed || s == Canceled || s == Rejected
}
