package console_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	consoleapi "github.com/tenurehq/tenure/api/console"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// body reads a response's body.
func body(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// post is a form post to a console path, with a session's cookie and
// CSRF token when given.
func post(path string, s *console.Session, form url.Values) *http.Request {
	if form == nil {
		form = url.Values{}
	}
	return (&rightsHarness{}).request(consoleapi.RouteRights{Method: fiber.MethodPost, Path: path}, s, form)
}

// get is a page's request, with a session's cookie when given.
func get(path string, s *console.Session) *http.Request {
	return (&rightsHarness{}).request(consoleapi.RouteRights{Method: fiber.MethodGet, Path: path}, s, nil)
}

// secretOf reads the TOTP secret out of a provisioning URI on a page.
var uriOnPage = regexp.MustCompile(`otpauth://totp/[^"]+`)

func secretOf(t *testing.T, page string) []byte {
	t.Helper()
	raw := uriOnPage.FindString(page)
	if raw == "" {
		t.Fatalf("no provisioning URI on the page:\n%.500s", page)
	}
	return testenv.TOTPSecret(t, strings.ReplaceAll(raw, "&amp;", "&"))
}

// An invitation's link shows the password form, the TOTP key and its QR
// code; a short password or a wrong code are refused on the page; the
// right ones set the account up and sign it in; the link then answers 410,
// as an expired one does, and an unknown one 404.
func TestInvitationOverHTTP(t *testing.T) {
	h := newRightsHarness(t)
	h.now = time.Now()
	h.accounts.InvitationTTL = 72 * time.Hour
	inv, err := h.accounts.InviteSellerUser(t.Context(), h.sellerID, "new-agent@example.com", console.Agent, "test")
	if err != nil {
		t.Fatal(err)
	}
	path := "/invitation/" + inv.Token
	// A second link of the account is used up by accepting the first.
	second, err := h.accounts.Invite(t.Context(), inv.User, "test")
	if err != nil {
		t.Fatal(err)
	}
	resp := h.do(t, get(path, nil))
	page := body(t, resp)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "new-agent@example.com") || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("the invitation page: %d %q\n%.500s", resp.StatusCode, resp.Header.Get("Referrer-Policy"), page)
	}
	secret := secretOf(t, page)
	resp = h.do(t, get(path+"/qr.png", nil))
	png := body(t, resp)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" || !bytes.HasPrefix([]byte(png), []byte("\x89PNG")) {
		t.Errorf("the QR code: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	code := console.TOTPCode(secret, console.TOTPStep(time.Now()))
	if resp := h.do(t, post(path, nil, url.Values{"password": {"too short"}, "code": {code}})); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a short password: %d, want 422", resp.StatusCode)
	}
	if resp := h.do(t, post(path, nil, url.Values{"password": {"a long enough password"}, "code": {wrongCodeOf(secret)}})); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a wrong code: %d, want 422", resp.StatusCode)
	}
	if _, err := h.accounts.SignIn(t.Context(), "new-agent@example.com", "a long enough password", code, "192.0.2.9"); err == nil {
		t.Error("an account signed in before accepting its invitation")
	}
	resp = h.do(t, post(path, nil, url.Values{"password": {"a long enough password"}, "code": {code}}))
	if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Set-Cookie"), consoleapi.SessionCookie+"=") {
		t.Fatalf("accepting: %d %q", resp.StatusCode, resp.Header.Get("Set-Cookie"))
	}
	for _, r := range []*http.Request{get(path, nil), get("/invitation/"+second.Token, nil),
		post(path, nil, url.Values{"password": {"another long password"}, "code": {code}})} {
		if resp := h.do(t, r); resp.StatusCode != http.StatusGone {
			t.Errorf("%s of a used invitation: %d, want 410", r.Method, resp.StatusCode)
		}
	}
	h.now = time.Now().Add(time.Minute)
	if _, err := h.accounts.SignIn(t.Context(), "new-agent@example.com", "a long enough password",
		console.TOTPCode(secret, console.TOTPStep(h.now)), "192.0.2.9"); err != nil {
		t.Errorf("signing in with the password chosen: %v", err)
	}
	entries, err := h.accounts.AuditLog(t.Context(), "invitation.accept", time.Time{}, uuid.Nil)
	if err != nil || len(entries) != 2 || entries[0].ActorEmail != "new-agent@example.com" ||
		entries[0].Outcome != console.Succeeded || entries[1].Outcome != console.Refused {
		t.Errorf("the acceptance's audit entries: %+v %v", entries, err)
	}

	late, err := h.accounts.InviteSellerUser(t.Context(), h.sellerID, "late@example.com", console.Agent, "test")
	if err != nil {
		t.Fatal(err)
	}
	h.now = h.now.Add(73 * time.Hour)
	if resp := h.do(t, get("/invitation/"+late.Token, nil)); resp.StatusCode != http.StatusGone || !strings.Contains(body(t, resp), "expired") {
		t.Errorf("an expired invitation: %d, want 410", resp.StatusCode)
	}
	if resp := h.do(t, get("/invitation/"+late.Token+"x", nil)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown invitation: %d, want 404", resp.StatusCode)
	}
}

// wrongCodeOf is a code none of the steps around now has.
func wrongCodeOf(secret []byte) string {
	step := console.TOTPStep(time.Now())
	for n := 0; ; n++ {
		code := fmt.Sprintf("%06d", n)
		if code != console.TOTPCode(secret, step-1) && code != console.TOTPCode(secret, step) && code != console.TOTPCode(secret, step+1) {
			return code
		}
	}
}

// A seller admin invites a user (the link shown once), refuses to disable
// themselves, disables the user, and creates, rotates and revokes an API
// credential of their seller, whose secret works and stops working
// accordingly; each change is in the audit log.
func TestSellerAdminManagesUsersAndCredentials(t *testing.T) {
	h := newRightsHarness(t)
	ctx := t.Context()
	h.accounts.InvitationTTL = time.Hour
	admin := h.signIn(t, "seller-admin@example.com")

	resp := h.do(t, post("/portal/users", &admin, url.Values{"email": {"not an address"}, "role": {"agent"}}))
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("inviting a wrong address: %d, want 422", resp.StatusCode)
	}
	resp = h.do(t, post("/portal/users", &admin, url.Values{"email": {"agent@example.com"}, "role": {"agent"}}))
	if resp.StatusCode != http.StatusConflict {
		t.Errorf("inviting a taken address: %d, want 409", resp.StatusCode)
	}
	resp = h.do(t, post("/portal/users", &admin, url.Values{"email": {"Sales@Example.com"}, "role": {"agent"}}))
	page := body(t, resp)
	link := regexp.MustCompile(`https://tenure\.example/console/invitation/[A-Z2-7]+`).FindString(page)
	if resp.StatusCode != http.StatusOK || link == "" {
		t.Fatalf("inviting: %d, link %q\n%.800s", resp.StatusCode, link, page)
	}
	if _, err := h.accounts.Invitation(ctx, strings.TrimPrefix(link, "https://tenure.example/console/invitation/")); err != nil {
		t.Errorf("the link shown opens no invitation: %v", err)
	}
	users, err := h.accounts.SellerUsers(ctx, h.sellerID)
	if err != nil {
		t.Fatal(err)
	}
	var sales console.SellerUserAccount
	for _, u := range users {
		if u.Email == "sales@example.com" {
			sales = u
		}
		if u.Email == "seller-admin@example.com" {
			if resp := h.do(t, post("/portal/users/"+u.ID.String()+"/disable", &admin, nil)); resp.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("disabling oneself: %d, want 422", resp.StatusCode)
			}
		}
	}
	if sales.Status != console.Invited || sales.Role != console.Agent {
		t.Fatalf("the invited user: %+v", sales)
	}
	if resp := h.do(t, post("/portal/users/"+sales.ID.String()+"/disable", &admin, nil)); resp.StatusCode != http.StatusOK {
		t.Errorf("disabling the user: %d", resp.StatusCode)
	}
	if _, err := h.accounts.Invitation(ctx, strings.TrimPrefix(link, "https://tenure.example/console/invitation/")); err == nil {
		t.Error("a disabled user's invitation still opens")
	}

	resp = h.do(t, post("/portal/credentials", &admin, nil))
	page = body(t, resp)
	clientID := regexp.MustCompile(`tnr_[0-9a-f]+`).FindString(page)
	secret := regexp.MustCompile(`tsk_[A-Za-z0-9_-]+`).FindString(page)
	if resp.StatusCode != http.StatusOK || clientID == "" || secret == "" {
		t.Fatalf("creating a credential: %d\n%.800s", resp.StatusCode, page)
	}
	if page := body(t, h.do(t, get("/portal/credentials", &admin))); strings.Contains(page, "tsk_") || !strings.Contains(page, clientID) {
		t.Error("the credentials page shows a secret, or not the new client")
	}
	stored, err := h.accounts.Store.GetSellerCredential(ctx, clientID)
	if err != nil || stored.SellerID != h.sellerID || !auth.SecretMatches(stored.SecretHash, secret) {
		t.Fatalf("the created credential: %+v %v", stored, err)
	}
	page = body(t, h.do(t, post("/portal/credentials/"+clientID+"/rotate", &admin, nil)))
	rotated := regexp.MustCompile(`tsk_[A-Za-z0-9_-]+`).FindString(page)
	stored, _ = h.accounts.Store.GetSellerCredential(ctx, clientID)
	if rotated == "" || rotated == secret || auth.SecretMatches(stored.SecretHash, secret) || !auth.SecretMatches(stored.SecretHash, rotated) {
		t.Error("rotating did not replace the secret")
	}
	if resp := h.do(t, post("/portal/credentials/"+clientID+"/revoke", &admin, nil)); resp.StatusCode != http.StatusOK {
		t.Errorf("revoking: %d", resp.StatusCode)
	}
	if _, err := h.accounts.Store.GetSellerCredential(ctx, clientID); err == nil {
		t.Error("a revoked credential is still found for the token endpoint")
	}
	if resp := h.do(t, post("/portal/credentials/"+clientID+"/rotate", &admin, nil)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("rotating a revoked credential: %d, want 404", resp.StatusCode)
	}

	counts := map[string]int{}
	entries, err := h.accounts.AuditLog(ctx, "", time.Time{}, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		counts[e.Action+" "+string(e.Outcome)]++
	}
	for _, want := range []string{"seller_user.invite succeeded", "seller_user.invite refused", "seller_user.disable succeeded",
		"seller_user.disable refused", "credential.create succeeded", "credential.rotate succeeded", "credential.revoke succeeded"} {
		if counts[want] != 1 {
			t.Errorf("the audit log has %d entries %q, want 1 (all: %v)", counts[want], want, counts)
		}
	}
}
