package clustertest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// eventKey names an event by what it says: its type and the offer or order
// it is about (a contract's events and invoices name the contract's
// order).
type eventKey struct{ Type, ObjectID string }

func (k eventKey) String() string { return k.Type + " of " + k.ObjectID }

// expectedEvents are the events the journeys must have caused: how many
// of each type about each offer or order.
func expectedEvents(journeys []*journey) map[eventKey]int {
	want := map[eventKey]int{}
	for _, j := range journeys {
		for _, e := range j.plan.events {
			object := j.offerID
			if e.OfOrder {
				object = j.orderID
			}
			want[eventKey{e.Type, object}] = max(e.Times, 1)
		}
	}
	return want
}

// eventCount is how many events want expects in all.
func eventCount(want map[eventKey]int) int {
	n := 0
	for _, times := range want {
		n += times
	}
	return n
}

// deliveryReport is what the receiver got, checked against the expected
// events.
type deliveryReport struct {
	// Events is the number of distinct webhook-ids answered with 2xx.
	Events int
	// Requests is every request received, repeated attempts included.
	Requests int
	// Repeated counts the ids delivered (answered 2xx) more than once:
	// delivery is at least once, and an attempt a killed worker made but
	// did not record is made again once its activity times out.
	Repeated int
	// Last is when the last delivery arrived.
	Last time.Time
	// Problems lists every event missing, unexpected, delivered under two
	// ids, or whose attempts disagree; empty when each expected event was
	// delivered once.
	Problems []string
}

// checkDeliveries compares the receiver's deliveries with want. A receiver
// that de-duplicates by webhook-id processes each id once, so "once" means
// one id per expected event: more ids than events of a type about an
// object are duplicates, an id for no expected event is unexpected. An id may be sent
// again only when a worker killed at kill may have sent it without
// recording the answer: when its first delivery came before the kill.
func checkDeliveries(rcv *testenv.Receiver, want map[eventKey]int, kill time.Time) deliveryReport {
	requests := rcv.Requests()
	report := deliveryReport{Requests: len(requests)}
	says := map[string]eventKey{}   // webhook-id -> the event its delivered body says
	first := map[string]time.Time{} // webhook-id -> its first delivery
	for _, r := range requests {
		if r.Status < 200 || r.Status > 299 {
			continue
		}
		if r.At.After(report.Last) {
			report.Last = r.At
		}
		if at, seen := first[r.ID]; !seen {
			first[r.ID] = r.At
		} else if at.After(kill) {
			report.Problems = append(report.Problems, fmt.Sprintf("webhook %s was sent again though first delivered after the kill", r.ID))
		}
		var body struct {
			ID      string `json:"id"`
			OrderID string `json:"order_id"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil || body.ID == "" {
			report.Problems = append(report.Problems, fmt.Sprintf("webhook %s has no object id in its body: %.200s", r.ID, r.Body))
			continue
		}
		key := eventKey{r.Header.Get("webhook-event-type"), body.ID}
		if strings.HasPrefix(key.Type, "contract.") || strings.HasPrefix(key.Type, "invoice.") {
			// A journey knows its order, whose one rented line the
			// contract is, and which each invoice bills.
			key.ObjectID = body.OrderID
		}
		if earlier, seen := says[r.ID]; seen && earlier != key {
			report.Problems = append(report.Problems, fmt.Sprintf("webhook %s was delivered as %s and as %s", r.ID, earlier, key))
		}
		says[r.ID] = key
	}
	report.Events = len(says)
	for _, n := range rcv.Delivered() {
		if n > 1 {
			report.Repeated++
		}
	}
	ids := map[eventKey][]string{}
	for id, key := range says {
		ids[key] = append(ids[key], id)
	}
	for key, times := range want {
		switch n := len(ids[key]); {
		case n < times:
			report.Problems = append(report.Problems, fmt.Sprintf("missing: %s (%d of %d delivered)", key, n, times))
		case n > times:
			slices.Sort(ids[key])
			report.Problems = append(report.Problems, fmt.Sprintf("%s delivered as %d events, not %d: %s", key, n, times, strings.Join(ids[key], ", ")))
		}
	}
	for key, got := range ids {
		if want[key] == 0 {
			report.Problems = append(report.Problems, fmt.Sprintf("unexpected: %s (webhook %s)", key, strings.Join(got, ", ")))
		}
	}
	slices.Sort(report.Problems)
	return report
}
