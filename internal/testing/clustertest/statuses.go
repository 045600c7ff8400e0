package clustertest

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/tenurehq/tenure/internal/testing/sellerclient"
)

// statusCounter counts the APIs' answers by status code, seen by the
// transport of the clients it watches.
type statusCounter struct {
	mu     sync.Mutex
	counts map[int]int
}

// watch counts the answers c receives from now on.
func (s *statusCounter) watch(c *sellerclient.Client) {
	next := c.HTTP.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.HTTP.Transport = countingTransport{s, next}
}

// failed is the number of answers that were not 2xx.
func (s *statusCounter) failed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for code, count := range s.counts {
		if code < 200 || code > 299 {
			n += count
		}
	}
	return n
}

// String lists the counts of the answers that were not 2xx.
func (s *statusCounter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var parts []string
	for _, code := range slices.Sorted(maps.Keys(s.counts)) {
		if code < 200 || code > 299 {
			parts = append(parts, fmt.Sprintf("%d × %d", s.counts[code], code))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// countingTransport counts each answer's status in a statusCounter.
type countingTransport struct {
	counter *statusCounter
	next    http.RoundTripper
}

// RoundTrip sends the request and counts the answer's status.
func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err == nil {
		t.counter.mu.Lock()
		if t.counter.counts == nil {
			t.counter.counts = map[int]int{}
		}
		t.counter.counts[resp.StatusCode]++
		t.counter.mu.Unlock()
	}
	return resp, err
}
