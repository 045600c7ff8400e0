package console

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// The portal's webhook pages.
const (
	portalEventsPath    = Base + "/webhooks"
	portalEndpointsPath = Base + "/webhooks/endpoints"
)

// portalWebhookRoutes are a seller's webhooks in the portal: the event log
// with each event's attempts for admins and agents; the endpoints, a
// redelivery and a test ping for admins only, so an agent never sees an
// endpoint's secret nor changes where events go.
func portalWebhookRoutes() []route {
	admins := []console.Role{console.Admin}
	everyone := []console.Role{console.Admin, console.Agent}
	return []route{
		{method: fiber.MethodGet, path: "/webhooks", access: byRole, sellers: everyone, nav: "nav.portal_webhooks", handle: (*server).portalEvents},
		{method: fiber.MethodGet, path: "/webhooks/events/:event", access: byRole, sellers: everyone, handle: (*server).portalEvent},
		{method: fiber.MethodPost, path: "/webhooks/events/:event/redeliver", access: byRole, sellers: admins, handle: (*server).portalRedeliver},
		{method: fiber.MethodGet, path: "/webhooks/endpoints", access: byRole, sellers: admins, nav: "nav.portal_webhook_endpoints", handle: (*server).portalEndpoints},
		{method: fiber.MethodPost, path: "/webhooks/endpoints", access: byRole, sellers: admins, handle: (*server).createEndpoint},
		{method: fiber.MethodPost, path: "/webhooks/endpoints/:endpoint/disable", access: byRole, sellers: admins, handle: (*server).disableEndpoint},
		{method: fiber.MethodPost, path: "/webhooks/endpoints/:endpoint/enable", access: byRole, sellers: admins, handle: (*server).enableEndpoint},
		{method: fiber.MethodPost, path: "/webhooks/endpoints/:endpoint/ping", access: byRole, sellers: admins, handle: (*server).pingEndpoint},
	}
}

// sellerOf is the seller a seller user's request works for: the routes
// open to seller users only let them through.
func sellerOf(c *fiber.Ctx) uuid.UUID {
	sess, _ := sessionOf(c)
	return *sess.User.SellerID
}

// idParam is a route parameter naming a record; ok is false for one that
// names none.
func idParam(c *fiber.Ctx, name string) (uuid.UUID, bool) {
	id, err := recordid.Parse(c.Params(name))
	return id, err == nil
}

// eventCard is an event of the log as the portal shows it.
type eventCard struct {
	ID, Type, ObjectID, Created, CreatedISO string
	Deliveries                              []deliveryLine
}

// deliveryLine is where an event's delivery to one endpoint stands.
type deliveryLine struct {
	Endpoint, Status, StatusCode, LastAttempt string
	Run, Attempts                             int32
}

// endpointNames names the seller's endpoints by their URLs; a deleted
// endpoint is named by its id.
type endpointNames map[uuid.UUID]string

// name is an endpoint's URL, else its id.
func (n endpointNames) name(id uuid.UUID) string {
	if u, ok := n[id]; ok {
		return u
	}
	return id.String()
}

// endpointNamesOf reads the names of a seller's endpoints.
func (s *server) endpointNamesOf(c *fiber.Ctx, sellerID uuid.UUID) (endpointNames, error) {
	endpoints, err := s.Service.Webhooks.ListEndpoints(c.UserContext(), sellerID)
	names := endpointNames{}
	for _, ep := range endpoints {
		names[ep.ID] = ep.URL
	}
	return names, err
}

// eventCardOf is an event as a page shows it.
func eventCardOf(v view, ev webhook.LoggedEvent, names endpointNames) eventCard {
	card := eventCard{ID: ev.ID.String(), Type: ev.Type, ObjectID: ev.ObjectID.String(), Created: formatTime(ev.CreatedAt), CreatedISO: isoTime(ev.CreatedAt)}
	for _, d := range ev.Deliveries {
		line := deliveryLine{Endpoint: names.name(d.EndpointID), Status: v.T("webhooks.delivery." + d.Status), StatusCode: d.Status, Run: d.Run, Attempts: d.Attempts}
		if d.LastAttemptAt != nil {
			line.LastAttempt = formatTime(*d.LastAttemptAt)
		}
		card.Deliveries = append(card.Deliveries, line)
	}
	return card
}

// portalEventsView is the event log's own data.
type portalEventsView struct {
	Events []eventCard
	// Older is the address of the next, older page; "" on the last.
	Older string
}

// portalEvents is the seller's event log, newest first, a page before the
// event the before parameter names.
func (s *server) portalEvents(c *fiber.Ctx) error {
	v := s.view(c, "webhooks.events_title")
	sellerID := sellerOf(c)
	beforeAt, beforeID, ok := parseCursor(c.Query("before"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	events, err := s.Service.EventLog(c.UserContext(), sellerID, beforeAt, beforeID)
	if err != nil {
		return s.failed(c, err)
	}
	names, err := s.endpointNamesOf(c, sellerID)
	if err != nil {
		return s.failed(c, err)
	}
	data := portalEventsView{}
	for _, ev := range events {
		data.Events = append(data.Events, eventCardOf(v, ev, names))
	}
	if len(events) == services.WebhooksPageSize {
		last := events[len(events)-1]
		data.Older = portalEventsPath + "?before=" + url.QueryEscape(cursor(last.CreatedAt, last.ID))
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "webhooks_events.html", v)
}

// attemptLine is one attempt of a delivery as a page shows it.
type attemptLine struct {
	Endpoint, Started, StartedISO, Outcome, OutcomeCode, StatusCode, Latency, ErrorClass, Excerpt string
	Run, Attempt                                                                                  int32
}

// portalEventView is an event's page's own data.
type portalEventView struct {
	Event    eventCard
	Payload  string
	Attempts []attemptLine
	// CanRedeliver shows the redelivery to admins.
	CanRedeliver bool
}

// portalEventNotices are the notices an event's page shows after an
// action, by its done parameter.
var portalEventNotices = map[string]string{"redelivered": "webhooks.redelivered", "pinged": "webhooks.pinged"}

// portalEvent is an event of the seller's log with every attempt of its
// deliveries.
func (s *server) portalEvent(c *fiber.Ctx) error {
	v := s.view(c, "webhooks.event_title")
	if key, ok := portalEventNotices[c.Query("done")]; ok {
		v.Notice = v.T(key)
	}
	return s.renderPortalEvent(c, fiber.StatusOK, v)
}

// renderPortalEvent writes an event's page with a status, after a
// redelivery that was refused too.
func (s *server) renderPortalEvent(c *fiber.Ctx, status int, v view) error {
	sellerID := sellerOf(c)
	id, ok := idParam(c, "event")
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	ev, err := s.Service.Webhooks.Event(c.UserContext(), sellerID, id, true)
	if errors.Is(err, services.ErrEventNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	names, err := s.endpointNamesOf(c, sellerID)
	if err != nil {
		return s.failed(c, err)
	}
	sess, _ := sessionOf(c)
	data := portalEventView{Event: eventCardOf(v, ev, names), Payload: string(ev.Payload), CanRedeliver: sess.User.Role == console.Admin}
	for _, a := range ev.Attempts {
		data.Attempts = append(data.Attempts, attemptLineOf(v, a, names))
	}
	v.Data = data
	return s.pages.render(c, status, "webhooks_event.html", v)
}

// attemptLineOf is an attempt as a page shows it.
func attemptLineOf(v view, a webhook.Attempt, names endpointNames) attemptLine {
	line := attemptLine{Endpoint: names.name(a.EndpointID), Started: formatTime(a.StartedAt), StartedISO: isoTime(a.StartedAt),
		Outcome: v.T("webhooks.outcome." + a.Outcome), OutcomeCode: a.Outcome, Run: a.Run, Attempt: a.Attempt}
	if a.StatusCode != nil {
		line.StatusCode = strconv.Itoa(int(*a.StatusCode))
	}
	if a.LatencyMs != nil {
		line.Latency = v.Tf("webhooks.latency", *a.LatencyMs)
	}
	if a.ErrorClass != nil {
		line.ErrorClass = *a.ErrorClass
	}
	if a.ResponseExcerpt != nil {
		line.Excerpt = *a.ResponseExcerpt
	}
	return line
}

// portalRedeliver sends an event of the seller's log again.
func (s *server) portalRedeliver(c *fiber.Ctx) error {
	who, sellerID := s.sellerActor(c)
	id, ok := idParam(c, "event")
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	err := s.Service.Redeliver(c.UserContext(), who, sellerID, id)
	switch {
	case err == nil:
		return c.Redirect(portalEventsPath+"/events/"+id.String()+"?done=redelivered", fiber.StatusSeeOther)
	case errors.Is(err, webhook.ErrNotFound):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case errors.Is(err, webhook.ErrDeliveryRunning):
		v := s.view(c, "webhooks.event_title")
		v.Problem = v.T("webhooks.delivery_running")
		c.Set("HX-Replace-Url", portalEventsPath+"/events/"+id.String())
		return s.renderPortalEvent(c, fiber.StatusConflict, v)
	}
	return s.failed(c, err)
}

// sellerActor is the seller user acting in a request, for the audit log,
// and their seller.
func (s *server) sellerActor(c *fiber.Ctx) (console.Actor, uuid.UUID) {
	sellerID := sellerOf(c)
	sess, _ := sessionOf(c)
	return s.actor(c, sess.User), sellerID
}

// endpointLine is an endpoint as the portal lists it: never its secret.
type endpointLine struct {
	ID, URL, Description, Events, Created string
	Disabled                              bool
	DisabledReason                        string
}

// portalEndpointsView is the endpoints page's own data.
type portalEndpointsView struct {
	Endpoints []endpointLine
	// Types are the event types a new endpoint may subscribe to.
	Types []option
	// Form is what the create form was given, kept when it was refused.
	Form struct{ URL, Description string }
	// Secret is a new endpoint's signing secret, shown this once.
	Secret, SecretEndpoint string
}

// portalEndpointNotices are the notices the endpoints page shows after an
// action, by its done parameter.
var portalEndpointNotices = map[string]string{
	"disabled": "webhooks.endpoint_disabled", "enabled": "webhooks.endpoint_enabled",
}

// portalEndpoints lists the seller's endpoints with the form to add one.
func (s *server) portalEndpoints(c *fiber.Ctx) error {
	v := s.view(c, "webhooks.endpoints_title")
	if key, ok := portalEndpointNotices[c.Query("done")]; ok {
		v.Notice = v.T(key)
	}
	return s.renderEndpoints(c, fiber.StatusOK, v, portalEndpointsView{})
}

// renderEndpoints writes the endpoints page with a status and what the
// action before it left (a secret, a refused form).
func (s *server) renderEndpoints(c *fiber.Ctx, status int, v view, data portalEndpointsView) error {
	sellerID := sellerOf(c)
	endpoints, err := s.Service.Webhooks.ListEndpoints(c.UserContext(), sellerID)
	if err != nil {
		return s.failed(c, err)
	}
	for _, ep := range endpoints {
		line := endpointLine{ID: ep.ID.String(), URL: ep.URL, Description: ep.Description, Created: formatTime(ep.CreatedAt),
			Events: strings.Join(ep.Events, ", "), Disabled: ep.DisabledAt != nil}
		if line.Events == "" {
			line.Events = v.T("webhooks.all_events")
		}
		if ep.DisabledReason != nil {
			line.DisabledReason = *ep.DisabledReason
		}
		data.Endpoints = append(data.Endpoints, line)
	}
	chosen := c.Request().PostArgs().PeekMulti("events")
	for _, t := range webhook.SubscribableTypes {
		data.Types = append(data.Types, option{Value: t, Label: t,
			Selected: slices.ContainsFunc(chosen, func(b []byte) bool { return string(b) == t })})
	}
	v.Data = data
	return s.pages.render(c, status, "webhooks_endpoints.html", v)
}

// createEndpoint registers an endpoint and shows its secret once; a
// refused field is named beside the form, which keeps what was given.
func (s *server) createEndpoint(c *fiber.Ctx) error {
	who, sellerID := s.sellerActor(c)
	var events []string
	for _, e := range c.Request().PostArgs().PeekMulti("events") {
		events = append(events, string(e))
	}
	in := webhook.EndpointInput{URL: strings.TrimSpace(c.FormValue("url")), Description: strings.TrimSpace(c.FormValue("description")), Events: events}
	ep, secret, err := s.Service.CreateEndpoint(c.UserContext(), who, sellerID, in)
	v := s.view(c, "webhooks.endpoints_title")
	c.Set("HX-Replace-Url", portalEndpointsPath)
	data := portalEndpointsView{}
	var field *webhook.FieldError
	switch {
	case err == nil:
		v.Notice = v.T("webhooks.endpoint_created")
		data.Secret, data.SecretEndpoint = secret, ep.URL
		return s.renderEndpoints(c, fiber.StatusCreated, v, data)
	case errors.As(err, &field):
		v.Problem = v.Tf("webhooks.field_refused", field.Field, field.Message)
	case errors.Is(err, webhook.ErrTooManyEndpoints):
		v.Problem = v.Tf("webhooks.too_many", webhook.MaxEndpoints)
	default:
		return s.failed(c, err)
	}
	data.Form.URL, data.Form.Description = in.URL, in.Description
	return s.renderEndpoints(c, fiber.StatusUnprocessableEntity, v, data)
}

// disableEndpoint stops deliveries to an endpoint.
func (s *server) disableEndpoint(c *fiber.Ctx) error { return s.setEnabled(c, false) }

// enableEndpoint lets an endpoint receive deliveries again.
func (s *server) enableEndpoint(c *fiber.Ctx) error { return s.setEnabled(c, true) }

// setEnabled disables or enables an endpoint of the seller.
func (s *server) setEnabled(c *fiber.Ctx, enabled bool) error {
	who, sellerID := s.sellerActor(c)
	id, ok := idParam(c, "endpoint")
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	err := s.Service.SetEndpointEnabled(c.UserContext(), who, sellerID, id, enabled)
	switch {
	case errors.Is(err, webhook.ErrNotFound):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case err != nil:
		return s.failed(c, err)
	}
	done := "disabled"
	if enabled {
		done = "enabled"
	}
	return c.Redirect(portalEndpointsPath+"?done="+done, fiber.StatusSeeOther)
}

// pingEndpoint sends a test event to an endpoint of the seller; its
// attempts show in the event log.
func (s *server) pingEndpoint(c *fiber.Ctx) error {
	who, sellerID := s.sellerActor(c)
	id, ok := idParam(c, "endpoint")
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	ev, err := s.Service.PingEndpoint(c.UserContext(), who, sellerID, id)
	switch {
	case err == nil:
		return c.Redirect(portalEventsPath+"/events/"+ev.ID.String()+"?done=pinged", fiber.StatusSeeOther)
	case errors.Is(err, webhook.ErrNotFound):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case errors.Is(err, webhook.ErrEndpointDisabled):
		v := s.view(c, "webhooks.endpoints_title")
		v.Problem = v.T("webhooks.ping_disabled")
		c.Set("HX-Replace-Url", portalEndpointsPath)
		return s.renderEndpoints(c, fiber.StatusConflict, v, portalEndpointsView{})
	}
	return s.failed(c, err)
}
