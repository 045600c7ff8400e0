package console

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// healthPath is the operators' webhooks health page.
const healthPath = Base + "/webhooks/health"

// healthWindows are the windows the failure rate may be taken over, in
// the filter's order; the first is the default.
var healthWindows = []struct {
	Value string
	Span  time.Duration
}{{"24h", 24 * time.Hour}, {"1h", time.Hour}, {"7d", 7 * 24 * time.Hour}}

// healthRoutes are the operators' webhooks health: every seller's
// endpoints by failure rate, an endpoint's deliveries, and a redelivery.
// Finance and admins work them (decision 0261): a failing endpoint is a
// merchant's integration problem the operations desk follows up, not a
// risk decision.
func healthRoutes() []route {
	ops := []console.Role{console.Finance, console.Admin}
	return []route{
		{method: fiber.MethodGet, path: "/webhooks/health", access: byRole, operators: ops, nav: "nav.webhooks_health", handle: (*server).webhookHealth},
		{method: fiber.MethodGet, path: "/webhooks/health/:endpoint", access: byRole, operators: ops, handle: (*server).endpointDeliveries},
		{method: fiber.MethodPost, path: "/webhooks/health/events/:event/redeliver", access: byRole, operators: ops, handle: (*server).operatorRedeliver},
	}
}

// healthLine is an endpoint as the health page lists it.
type healthLine struct {
	ID, Seller, URL, Rate, Counts, DisabledReason string
	Disabled                                      bool
	// LastFailure says when and how the window's last failure went; ""
	// without one.
	LastFailure, LastFailureISO, LastError, LastExcerpt string
}

// healthView is the health page's own data.
type healthView struct {
	Windows      []option
	DisabledOnly bool
	Endpoints    []healthLine
	// Next is the address of the next page; "" on the last.
	Next string
}

// webhookHealth lists every seller's endpoints, the worst failure rate
// over the chosen window first, a page after the endpoint the after
// parameter names.
func (s *server) webhookHealth(c *fiber.Ctx) error {
	v := s.view(c, "webhooks.health_title")
	window := c.Query("window", healthWindows[0].Value)
	var span time.Duration
	data := healthView{DisabledOnly: c.Query("disabled") == "1"}
	for _, w := range healthWindows {
		if w.Value == window {
			span = w.Span
		}
		data.Windows = append(data.Windows, option{Value: w.Value, Label: v.T("webhooks.window." + w.Value), Selected: w.Value == window})
	}
	afterPermille, afterID, ok := parseRateCursor(c.Query("after"))
	if span == 0 || !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	rows, err := s.Service.WebhookHealth(c.UserContext(), time.Now().Add(-span), data.DisabledOnly, afterPermille, afterID)
	if err != nil {
		return s.failed(c, err)
	}
	for _, h := range rows {
		data.Endpoints = append(data.Endpoints, healthLineOf(v, h))
	}
	if len(rows) == services.WebhooksPageSize {
		last := rows[len(rows)-1]
		q := url.Values{"window": {window}, "after": {fmt.Sprintf("%d_%s", last.FailurePermille, last.Endpoint.ID)}}
		if data.DisabledOnly {
			q.Set("disabled", "1")
		}
		data.Next = healthPath + "?" + q.Encode()
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "webhooks_health.html", v)
}

// healthLineOf is an endpoint's health as the page shows it.
func healthLineOf(v view, h services.EndpointHealth) healthLine {
	line := healthLine{
		ID: h.Endpoint.ID.String(), Seller: h.SellerName, URL: h.Endpoint.URL,
		Rate:     v.Tf("webhooks.rate", float64(h.FailurePermille)/10),
		Counts:   v.Tf("webhooks.counts", h.Failures, h.Finished),
		Disabled: h.Endpoint.DisabledAt != nil,
	}
	if h.Endpoint.DisabledReason != nil {
		line.DisabledReason = *h.Endpoint.DisabledReason
	}
	if f := h.LastFailure; f != nil {
		line.LastFailure, line.LastFailureISO = formatTime(f.StartedAt), isoTime(f.StartedAt)
		var parts []string
		if f.StatusCode != nil {
			parts = append(parts, "HTTP "+strconv.Itoa(int(*f.StatusCode)))
		}
		if f.ErrorClass != nil {
			parts = append(parts, *f.ErrorClass)
		}
		line.LastError = strings.Join(parts, " · ")
		if f.ResponseExcerpt != nil {
			line.LastExcerpt = *f.ResponseExcerpt
		}
	}
	return line
}

// parseRateCursor reads the health list's cursor, "permille_id"; "" is
// the first page (a negative rate).
func parseRateCursor(s string) (int32, uuid.UUID, bool) {
	if s == "" {
		return -1, uuid.Nil, true
	}
	rate, id, ok := strings.Cut(s, "_")
	n, err := strconv.ParseInt(rate, 10, 32)
	u, idErr := recordid.Parse(id)
	return int32(n), u, ok && err == nil && idErr == nil && n >= 0 && n <= 1000
}

// endpointDeliveriesView is an endpoint's page's own data.
type endpointDeliveriesView struct {
	ID, Seller, URL, DisabledReason string
	Disabled                        bool
	Deliveries                      []endpointDeliveryLine
	// Older is the address of the next, older page; "" on the last.
	Older string
}

// endpointDeliveryLine is a delivery to the endpoint as its page shows it.
type endpointDeliveryLine struct {
	EventID, EventType, Created, CreatedISO, Status, StatusCode, LastAttempt string
	Run, Attempts                                                            int32
}

// endpointNotices are the notices an endpoint's page shows after a
// redelivery, by its done parameter.
var endpointNotices = map[string]string{"redelivered": "webhooks.redelivered"}

// endpointDeliveries is an endpoint of any seller with its deliveries,
// newest first, each with a redelivery.
func (s *server) endpointDeliveries(c *fiber.Ctx) error {
	v := s.view(c, "webhooks.deliveries_title")
	if key, ok := endpointNotices[c.Query("done")]; ok {
		v.Notice = v.T(key)
	}
	return s.renderEndpointDeliveries(c, fiber.StatusOK, v, c.Params("endpoint"))
}

// renderEndpointDeliveries writes an endpoint's page with a status, after
// a refused redelivery too.
func (s *server) renderEndpointDeliveries(c *fiber.Ctx, status int, v view, endpoint string) error {
	id, err := recordid.Parse(endpoint)
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	beforeAt, beforeID, ok := parseCursor(c.Query("before"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	ep, err := s.Service.EndpointOfAnySeller(c.UserContext(), id)
	if errors.Is(err, webhook.ErrNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	deliveries, err := s.Service.EndpointDeliveries(c.UserContext(), id, beforeAt, beforeID)
	if err != nil {
		return s.failed(c, err)
	}
	data := endpointDeliveriesView{ID: id.String(), Seller: ep.SellerName, URL: ep.Endpoint.URL, Disabled: ep.Endpoint.DisabledAt != nil}
	if ep.Endpoint.DisabledReason != nil {
		data.DisabledReason = *ep.Endpoint.DisabledReason
	}
	for _, d := range deliveries {
		line := endpointDeliveryLine{EventID: d.EventID.String(), EventType: d.EventType, Created: formatTime(d.CreatedAt), CreatedISO: isoTime(d.CreatedAt),
			Status: v.T("webhooks.delivery." + d.Status), StatusCode: d.Status, Run: d.Run, Attempts: d.Attempts}
		if d.LastAttemptAt != nil {
			line.LastAttempt = formatTime(*d.LastAttemptAt)
		}
		data.Deliveries = append(data.Deliveries, line)
	}
	if len(deliveries) == services.WebhooksPageSize {
		last := deliveries[len(deliveries)-1]
		data.Older = healthPath + "/" + id.String() + "?before=" + url.QueryEscape(cursor(last.CreatedAt, last.EventID))
	}
	v.Data = data
	return s.pages.render(c, status, "webhooks_deliveries.html", v)
}

// operatorRedeliver sends an event again, whoever its seller, and returns
// to the endpoint's page the form names.
func (s *server) operatorRedeliver(c *fiber.Ctx) error {
	id, ok := idParam(c, "event")
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	sess, _ := sessionOf(c)
	endpoint := c.FormValue("endpoint")
	back := healthPath
	if _, err := recordid.Parse(endpoint); err == nil {
		back = healthPath + "/" + endpoint
	}
	err := s.Service.RedeliverAny(c.UserContext(), s.actor(c, sess.User), id)
	switch {
	case err == nil:
		return c.Redirect(back+"?done=redelivered", fiber.StatusSeeOther)
	case errors.Is(err, webhook.ErrNotFound):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case errors.Is(err, webhook.ErrDeliveryRunning) && back != healthPath:
		v := s.view(c, "webhooks.deliveries_title")
		v.Problem = v.T("webhooks.delivery_running")
		c.Set("HX-Replace-Url", back)
		return s.renderEndpointDeliveries(c, fiber.StatusConflict, v, endpoint)
	case errors.Is(err, webhook.ErrDeliveryRunning):
		return s.problem(c, fiber.StatusConflict, "webhooks.delivery_running")
	}
	return s.failed(c, err)
}
