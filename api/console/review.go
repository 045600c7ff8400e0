package console

import (
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// reviewPath is the review queue's page.
const reviewPath = Base + "/review"

// reviewView is the queue's own data.
type reviewView struct {
	Items []offerCard
	// Next is the address of the next page; "" on the last.
	Next string
}

// reviewNotices are the notices the queue shows after a decision, by its
// done parameter.
var reviewNotices = map[string]string{"accepted": "review.accepted", "declined": "review.declined", "approved": "review.approved"}

// decidedNotices are the done parameters of the actions a decision took.
var decidedNotices = map[string]string{
	"offer.accept": "accepted", services.ActionConfirm: "accepted", services.ActionApprove: "approved", "offer.decline": "declined",
}

// reviewRoutes are the review queue, its decisions and the offer page.
func reviewRoutes() []route {
	reviewers := []console.Role{console.Reviewer, console.Admin}
	return []route{
		{method: fiber.MethodGet, path: "/review", access: byRole, operators: reviewers, nav: "nav.review", handle: (*server).reviewQueue},
		{method: fiber.MethodPost, path: "/review/:offer/accept", access: byRole, operators: reviewers, handle: (*server).accept},
		{method: fiber.MethodPost, path: "/review/:offer/decline", access: byRole, operators: reviewers, handle: (*server).decline},
		{method: fiber.MethodGet, path: "/offers/:offer", access: byRole, operators: console.OperatorRoles, handle: (*server).offer},
	}
}

// reviewQueue lists the offers waiting for a decision, oldest first, a
// page after the offer the after parameter names.
func (s *server) reviewQueue(c *fiber.Ctx) error {
	v := s.view(c, "review.title")
	if key, ok := reviewNotices[c.Query("done")]; ok {
		v.Notice = v.T(key)
	}
	return s.renderQueue(c, fiber.StatusOK, v)
}

// renderQueue writes the queue's page with a status, after a decision
// that failed too.
func (s *server) renderQueue(c *fiber.Ctx, status int, v view) error {
	afterAt, afterID, ok := parseCursor(c.Query("after"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	items, err := s.Service.ReviewQueue(c.UserContext(), afterAt, afterID)
	if err != nil {
		return s.failed(c, err)
	}
	data := reviewView{}
	for _, item := range items {
		data.Items = append(data.Items, cardOf(v, item, s.Service.NeedsSecondApproval(item.Offer)))
	}
	if len(items) == services.ReviewPageSize {
		last := items[len(items)-1].Offer.Row
		data.Next = reviewPath + "?after=" + url.QueryEscape(cursor(last.CreatedAt, last.ID))
	}
	v.Data = data
	return s.pages.render(c, status, "review.html", v)
}

// accept accepts an offer under review.
func (s *server) accept(c *fiber.Ctx) error { return s.decide(c, true) }

// decline declines an offer under review with the operator's reason.
func (s *server) decline(c *fiber.Ctx) error { return s.decide(c, false) }

// decide takes the operator's decision through the service, then returns
// to the queue; a decision refused (the offer was decided meanwhile, no
// reason given) shows the queue again with what went wrong.
func (s *server) decide(c *fiber.Ctx, accept bool) error {
	id, err := recordid.Parse(c.Params("offer"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	sess, _ := sessionOf(c)
	action, err := s.Service.Decide(c.UserContext(), s.actor(c, sess.User), id, accept, c.FormValue("reason"))
	if err == nil {
		return c.Redirect(reviewPath+"?done="+decidedNotices[action], fiber.StatusSeeOther)
	}
	v := s.view(c, "review.title")
	status := fiber.StatusConflict
	var refused *refusal.Error
	switch {
	case errors.Is(err, services.ErrOfferNotFound):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case errors.Is(err, services.ErrReasonRequired):
		status, v.Problem = fiber.StatusUnprocessableEntity, v.T("review.reason_required")
	case errors.Is(err, services.ErrReasonTooLong):
		status, v.Problem = fiber.StatusUnprocessableEntity, v.T("review.reason_too_long")
	case errors.Is(err, services.ErrOwnApproval):
		v.Problem = v.T("review.own_approval")
	case errors.As(err, &refused):
		// The workflow's refusal is the API's English; the page names the
		// status the offer has now instead.
		item, readErr := s.Service.Offer(c.UserContext(), id)
		if readErr != nil {
			return s.failed(c, errors.Join(err, readErr))
		}
		v.Problem = v.Tf("review.refused", item.Offer.Row.Status)
	case errors.Is(err, services.ErrUnavailable):
		status, v.Problem = fiber.StatusServiceUnavailable, v.T("review.unavailable")
	default:
		return s.failed(c, err)
	}
	// The page is the queue's, whatever address the form posted to.
	c.Set("HX-Replace-Url", reviewPath)
	return s.renderQueue(c, status, v)
}

// cursor names a list's last row for the next page: its time and id.
func cursor(at time.Time, id uuid.UUID) string {
	return at.UTC().Format(time.RFC3339Nano) + "_" + id.String()
}

// parseCursor reads a cursor; "" is the first page.
func parseCursor(s string) (time.Time, uuid.UUID, bool) {
	if s == "" {
		return time.Time{}, uuid.Nil, true
	}
	at, id, ok := strings.Cut(s, "_")
	t, err := time.Parse(time.RFC3339Nano, at)
	u, idErr := recordid.Parse(id)
	return t, u, ok && err == nil && idErr == nil
}
