package console

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/console"
)

// auditActions are the actions the audit log's filter offers, in its order.
var auditActions = []string{"offer.accept", "offer.approve", "offer.confirm", "offer.decline", "seller.create", "seller.profile",
	"seller.rotate_secret", "seller.revoke_client", "sign_in", "sign_out"}

// auditView is the audit log's own data.
type auditView struct {
	Actions []option
	Entries []auditEntry
	// Older is the address of the next, older page; "" on the last.
	Older string
}

// option is one choice of a select.
type option struct {
	Value, Label string
	Selected     bool
}

// auditEntry is one entry as the page shows it.
type auditEntry struct {
	At, AtISO, Action, Actor, Target, Detail string
	Outcome, OutcomeCode, Address, RequestID string
	// TargetPath is the target's page, when it has one.
	TargetPath string
}

// entryOf is an audit entry as a page shows it.
func entryOf(v view, e console.Entry) auditEntry {
	return auditEntry{
		At: formatTime(e.At), AtISO: isoTime(e.At), Action: v.T("action." + e.Action), Actor: e.ActorEmail,
		Target: e.Target, Detail: e.Detail, Outcome: v.T("audit.outcome." + string(e.Outcome)), OutcomeCode: string(e.Outcome),
		Address: e.Address, RequestID: e.RequestID, TargetPath: targetPath(e.Target),
	}
}

// targetPath is the page of an audit entry's target: an offer's or a
// seller's.
func targetPath(target string) string {
	if id, ok := strings.CutPrefix(target, "offer "); ok {
		return Base + "/offers/" + id
	}
	if id, ok := strings.CutPrefix(target, "seller "); ok {
		return sellersPath + "/" + id
	}
	return ""
}

// auditRoutes are the audit log, open to admins.
func auditRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/audit", access: byRole, operators: []console.Role{console.Admin}, nav: "nav.audit", handle: (*server).auditLog},
	}
}

// auditLog shows the audit log, newest first, of one action or all.
func (s *server) auditLog(c *fiber.Ctx) error {
	v := s.view(c, "audit.title")
	action := c.Query("action")
	data := auditView{Actions: []option{{Value: "", Label: v.T("audit.all"), Selected: action == ""}}}
	known := action == ""
	for _, a := range auditActions {
		known = known || a == action
		data.Actions = append(data.Actions, option{Value: a, Label: v.T("action." + a), Selected: a == action})
	}
	beforeAt, beforeID, ok := parseCursor(c.Query("before"))
	if !known || !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	entries, err := s.Service.Accounts.AuditLog(c.UserContext(), action, beforeAt, beforeID)
	if err != nil {
		return s.failed(c, err)
	}
	for _, e := range entries {
		data.Entries = append(data.Entries, entryOf(v, e))
	}
	if len(entries) == console.AuditPageSize {
		last := entries[len(entries)-1]
		q := url.Values{"before": {cursor(last.At, last.ID)}}
		if action != "" {
			q.Set("action", action)
		}
		data.Older = Base + "/audit?" + q.Encode()
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "audit.html", v)
}
