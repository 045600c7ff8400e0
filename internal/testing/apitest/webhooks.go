package apitest

import (
	"encoding/json"
	"time"

	"github.com/tenurehq/tenure/config"
)

// EventView is an event of the seller's log as the API answers it.
type EventView struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	ObjectID   string          `json:"object_id"`
	Payload    json.RawMessage `json:"payload"`
	Deliveries []struct {
		EndpointID string `json:"endpoint_id"`
		Status     string `json:"status"`
		Run        int    `json:"run"`
		Attempts   int    `json:"attempts"`
	} `json:"deliveries"`
	Attempts []struct {
		EndpointID      string `json:"endpoint_id"`
		Attempt         int    `json:"attempt"`
		Outcome         string `json:"outcome"`
		StatusCode      int    `json:"status_code"`
		LatencyMs       *int   `json:"latency_ms"`
		ErrorClass      string `json:"error_class"`
		ResponseExcerpt string `json:"response_excerpt"`
	} `json:"attempts"`
}

// EventPage is a page of the seller's event log.
type EventPage struct {
	Events     []EventView `json:"events"`
	Pagination struct {
		Page       int `json:"page"`
		PageSize   int `json:"page_size"`
		TotalCount int `json:"total_count"`
		TotalPages int `json:"total_pages"`
	} `json:"pagination"`
}

// CompressSchedule retries webhook deliveries within a fraction of a
// second.
func CompressSchedule(c *config.Config) {
	c.Webhooks.RetrySchedule = []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond}
}
