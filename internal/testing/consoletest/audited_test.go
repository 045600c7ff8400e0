package consoletest

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
)

// unaudited are the changing requests the console rightly answers without
// an audit entry, by route (the route table's path under /console, its
// parameters as ":name", "*" for every route) and status. Each changes
// nothing a person did; every other changing request a browser test sends
// must have its entry (expectAudited).
var unaudited = []unauditedRequest{
	// Starting a passkey ceremony only issues its challenge, kept for the
	// ceremony's end; the end is audited, accepted or refused
	// (account.go passkeyOptions, passkey_sign_in.go passkeySignInOptions).
	{"POST", "/account/passkeys/options", 200},
	{"POST", "/sign-in/passkey/options", 200},
	// A throttled sign-in is deliberately not written, so that a flood of
	// them cannot fill the log (sign_in.go signIn, passkeySignIn).
	{"POST", "/sign-in", 429},
	{"POST", "/sign-in/passkey", 429},
	// The rights check refuses a changing request from another origin,
	// without the session's CSRF token or of a role the route is not open
	// to before any handler runs; no handler answers 403 (rights.go).
	{"POST", "*", 403},
	// The offer builder's form posts to bring the basket and its prices up
	// to date (a line added or removed, a search); only its "create"
	// action changes something (portal_offers.go offerBuilderPost), and a
	// refused "create" (422) is audited, by the builder's own check or by
	// the offer service.
	{"POST", "/portal/offers/new", 200},
}

// unauditedRequest is an entry of unaudited.
type unauditedRequest struct {
	method, route string
	status        int64
}

// covers says whether the entry lets a request of method to the console
// path (under /console) go without an audit entry when answered status.
func (u unauditedRequest) covers(method, path string, status int64) bool {
	if u.method != method || u.status != status {
		return false
	}
	if u.route == "*" {
		return true
	}
	want, got := strings.Split(u.route, "/"), strings.Split(path, "/")
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i] != got[i] && !strings.HasPrefix(want[i], ":") {
			return false
		}
	}
	return true
}

// changingRequest is a request the browser sent to change something in
// the console, and the server's answer to it.
type changingRequest struct {
	method, path string
	// answered says whether the answer came; status and id are the
	// answer's, id its X-Request-Id.
	answered bool
	status   int64
	id       string
}

// changingRequests records the changing requests of a tab, in order.
type changingRequests struct {
	mu   sync.Mutex
	all  []*changingRequest
	open map[network.RequestID]*changingRequest
}

// see takes an event of the tab's Network domain, which chromedp enables
// on every tab. A redirect's answer comes with the request that follows
// it rather than as a response of its own.
func (rs *changingRequests) see(ev any) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.RedirectResponse != nil {
			rs.answer(ev.RequestID, ev.RedirectResponse)
		}
		u, err := url.Parse(ev.Request.URL)
		if err != nil || ev.Request.Method == "GET" || ev.Request.Method == "HEAD" || !strings.HasPrefix(u.Path, "/console/") {
			return
		}
		r := &changingRequest{method: ev.Request.Method, path: u.Path}
		rs.all = append(rs.all, r)
		rs.open[ev.RequestID] = r
	case *network.EventResponseReceived:
		rs.answer(ev.RequestID, ev.Response)
	}
}

// answer gives the open request of id its answer.
func (rs *changingRequests) answer(id network.RequestID, resp *network.Response) {
	r, ok := rs.open[id]
	if !ok {
		return
	}
	delete(rs.open, id)
	r.answered, r.status = true, resp.Status
	for name, value := range resp.Headers {
		if strings.EqualFold(name, "X-Request-Id") {
			r.id = fmt.Sprint(value)
		}
	}
}

// expectAudited records the changing requests the tab of ctx sends to the
// console and, as the test ends, checks that the audit log has an entry
// of each by its request id, unless unaudited lets it go. It must be
// called with the database alive until the test's end: the check runs
// before the cleanups registered earlier, as the database's are.
func expectAudited(t *testing.T, ctx context.Context, accounts *console.Accounts) {
	t.Helper()
	rs := &changingRequests{open: map[network.RequestID]*changingRequest{}}
	if err := chromedp.Listen(ctx, rs.see); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rs.mu.Lock()
		sent := rs.all
		rs.mu.Unlock()
		if len(sent) == 0 {
			return
		}
		// The test's context is done by now; the database is not.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		ids, err := auditedRequests(ctx, accounts)
		if err != nil {
			t.Errorf("reading the audit log: %v", err)
			return
		}
		t.Logf("%d changing requests to the console, each checked against the audit log", len(sent))
		for _, r := range sent {
			switch {
			case !r.answered:
				t.Errorf("%s %s: no answer seen, so no request id to find in the audit log", r.method, r.path)
			case !ids[r.id] && !letGo(r):
				t.Errorf("the audit log has no entry of %s %s, answered %d (request %s)", r.method, r.path, r.status, r.id)
			}
		}
	})
}

// letGo says whether unaudited lets a request go without an entry.
func letGo(r *changingRequest) bool {
	path := strings.TrimPrefix(r.path, "/console")
	for _, u := range unaudited {
		if u.covers(r.method, path, r.status) {
			return true
		}
	}
	return false
}

// auditedRequests are the request ids of every entry of the audit log.
func auditedRequests(ctx context.Context, accounts *console.Accounts) (map[string]bool, error) {
	ids := map[string]bool{}
	var beforeAt time.Time
	var beforeID uuid.UUID
	for {
		page, err := accounts.AuditLog(ctx, "", beforeAt, beforeID)
		if err != nil {
			return nil, err
		}
		for _, e := range page {
			ids[e.RequestID] = true
		}
		if len(page) < console.AuditPageSize {
			return ids, nil
		}
		last := page[len(page)-1]
		beforeAt, beforeID = last.At, last.ID
	}
}
