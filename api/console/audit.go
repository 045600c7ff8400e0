package console

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// auditActions are the actions the audit log's filter offers, in its order.
var auditActions = []string{"offer.accept", "offer.decline", "sign_in", "sign_out", "sign_out.everywhere", "passkey.add", "passkey.remove", "recovery_codes.new",
	"invitation.accept", "seller_user.invite", "seller_user.reinvite", "seller_user.disable",
	"credential.create", "credential.rotate", "credential.revoke",
	"portal.offer.create", "portal.order.acknowledge", "portal.order.confirm", "portal.order.reject", "portal.order.ship",
	"portal.contract.return", "portal.contract.buy_out", "portal.contract.extend", "portal.contract.quote_termination", "portal.contract.terminate",
	"webhook.endpoint_create", "webhook.endpoint_disable", "webhook.endpoint_enable", "webhook.ping", "webhook.redeliver", "catalog.import",
	services.ImportReturnsAction, "portal.profile.update",
	"offer.approve", "offer.confirm", "seller.create", "seller.profile", "seller.rotate_secret", "seller.revoke_client"}

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
		Address: e.Address, RequestID: e.RequestID, TargetPath: targetPath(v.table, v.User, e.Target),
	}
}

// targetPages are the pages an audit entry's target may link to, by the
// kind of record it names: the operators' page first, then the merchant
// portal's.
var targetPages = map[string][]string{
	"offer":    {"/offers/", "/portal/offers/"},
	"order":    {"/orders/", "/portal/orders/"},
	"contract": {"/contracts/", "/portal/contracts/"},
	"seller":   {"/sellers/"},
}

// targetPath is the page of an audit entry's target ("offer <id>", "order
// <id>", "contract <id>") that the viewer may open: the first of its
// pages whose route the table opens to the viewer's role; "" when
// none is (a page not built, a role it is closed to) or the target names
// no record.
func targetPath(table []route, viewer *console.User, target string) string {
	kind, id, _ := strings.Cut(target, " ")
	if _, err := recordid.Parse(id); err != nil || viewer == nil {
		return ""
	}
	for _, prefix := range targetPages[kind] {
		for _, r := range table {
			param, ok := strings.CutPrefix(r.path, prefix+":")
			if ok && r.method == fiber.MethodGet && !strings.Contains(param, "/") && r.allows(*viewer) {
				return Base + prefix + id
			}
		}
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
