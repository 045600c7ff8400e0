package console_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	consoleapi "github.com/tenurehq/tenure/api/console"
	"github.com/tenurehq/tenure/domain/console"
)

// jsonPost is a request of the passkey script: JSON, with the session's
// CSRF token in its header when signed in.
func jsonPost(path, body string, s *console.Session) *http.Request {
	req := httptest.NewRequest(fiber.MethodPost, consoleapi.Base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if s != nil {
		req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: s.Token})
		req.Header.Set(consoleapi.CSRFHeader, s.CSRF)
	}
	return req
}

// answerOf reads the passkey script's answer.
func answerOf(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	var a map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatalf("answer %d is not JSON: %v", resp.StatusCode, err)
	}
	return a
}

// The passkey endpoints answer bad input with a 4xx naming the problem,
// in JSON for the script, and change nothing.
func TestPasskeyEndpointsRefuseBadInput(t *testing.T) {
	h := newRightsHarness(t)
	admin := h.signIn(t, "admin@example.com")

	resp := h.do(t, jsonPost("/account/passkeys/options", "", &admin))
	options := answerOf(t, resp)
	publicKey, _ := options["publicKey"].(map[string]any)
	rp, _ := publicKey["rp"].(map[string]any)
	if resp.StatusCode != http.StatusOK || rp["id"] != "localhost" || publicKey["challenge"] == "" {
		t.Errorf("registration options: %d %v", resp.StatusCode, options)
	}
	noToken := jsonPost("/account/passkeys/options", "", &admin)
	noToken.Header.Del(consoleapi.CSRFHeader)
	if resp := h.do(t, noToken); resp.StatusCode != http.StatusForbidden {
		t.Errorf("options without the CSRF header: %d, want 403", resp.StatusCode)
	}

	for body, want := range map[string]string{
		"not json":                                 "not a passkey",
		`{"name": "", "credential": {}}`:           "Name the passkey",
		`{"name": "Laptop", "credential": {}}`:     "could not be added",
		`{"name": "Laptop", "credential": "nope"}`: "could not be added",
	} {
		resp := h.do(t, jsonPost("/account/passkeys", body, &admin))
		if a := answerOf(t, resp); resp.StatusCode != http.StatusBadRequest || !strings.Contains(a["problem"].(string), want) {
			t.Errorf("adding %s: %d %v, want 400 saying %q", body, resp.StatusCode, a, want)
		}
	}
	for _, id := range []string{"AAAAAAAAAAAAAAAAAAAAAA", "not*base64"} {
		form := url.Values{consoleapi.CSRFField: {admin.CSRF}}
		req := httptest.NewRequest(fiber.MethodPost, consoleapi.Base+"/account/passkeys/"+id+"/remove", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: admin.Token})
		if resp := h.do(t, req); resp.StatusCode != http.StatusNotFound {
			t.Errorf("removing passkey %s: %d, want 404", id, resp.StatusCode)
		}
	}
	if keys, err := h.accounts.Passkeys(t.Context(), admin.User.ID); err != nil || len(keys) != 0 {
		t.Errorf("passkeys after refusals: %v %v", keys, err)
	}

	resp = h.do(t, jsonPost("/sign-in/passkey/options", "", nil))
	if a := answerOf(t, resp); resp.StatusCode != http.StatusOK || a["publicKey"].(map[string]any)["rpId"] != "localhost" {
		t.Errorf("sign-in options: %d %v", resp.StatusCode, a)
	}
	resp = h.do(t, jsonPost("/sign-in/passkey", `{"id": "x"}`, nil))
	if a := answerOf(t, resp); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(a["problem"].(string), "not accepted") ||
		resp.Header.Get("Set-Cookie") != "" {
		t.Errorf("a malformed passkey sign-in: %d %v", resp.StatusCode, a)
	}
	entries, err := h.accounts.AuditLog(t.Context(), "sign_in", time.Time{}, [16]byte{})
	if err != nil || len(entries) == 0 || entries[0].Outcome != console.Refused || !strings.HasPrefix(entries[0].Detail, "passkey") {
		t.Errorf("the refused passkey sign-in's audit entry: %+v %v", entries, err)
	}
}

// New recovery codes are shown once; one of them signs in over the form
// in place of the TOTP code, audited; signing out everywhere ends every
// session of the account.
func TestRecoveryCodesAndSignOutEverywhereOverHTTP(t *testing.T) {
	h := newRightsHarness(t)
	first := h.signIn(t, "finance@example.com")
	second := h.signIn(t, "finance@example.com")

	form := url.Values{consoleapi.CSRFField: {first.CSRF}}
	req := httptest.NewRequest(fiber.MethodPost, consoleapi.Base+"/account/recovery-codes", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: first.Token})
	resp := h.do(t, req)
	page, _ := io.ReadAll(resp.Body)
	codes := regexp.MustCompile(`<li>([a-z2-7]{4}(?:-[a-z2-7]{4}){3})</li>`).FindAllStringSubmatch(string(page), -1)
	if resp.StatusCode != http.StatusOK || len(codes) != console.RecoveryCodeCount || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("new recovery codes: %d, %d codes", resp.StatusCode, len(codes))
	}

	resp = h.do(t, signInForm("finance@example.com", h.password, codes[4][1]))
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in with a recovery code: %d", resp.StatusCode)
	}
	if resp := h.do(t, signInForm("finance@example.com", h.password, codes[4][1])); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a recovery code used twice: %d, want 401", resp.StatusCode)
	}
	entries, err := h.accounts.AuditLog(t.Context(), "sign_in", time.Time{}, [16]byte{})
	if err != nil || len(entries) < 2 || entries[1].Detail != "recovery code, 9 left" || entries[1].Outcome != console.Succeeded ||
		entries[0].Detail != "recovery code" || entries[0].Outcome != console.Refused {
		t.Errorf("the recovery code's audit entries: %+v %v", entries, err)
	}

	form = url.Values{consoleapi.CSRFField: {second.CSRF}}
	req = httptest.NewRequest(fiber.MethodPost, consoleapi.Base+"/account/sign-out-everywhere", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.AddCookie(&http.Cookie{Name: consoleapi.SessionCookie, Value: second.Token})
	resp = h.do(t, req)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != consoleapi.Base+"/sign-in?state=signed_out_everywhere" {
		t.Errorf("signing out everywhere: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, s := range []console.Session{first, second} {
		if _, err := h.accounts.Session(t.Context(), s.Token); err == nil {
			t.Error("a session lives on after signing out everywhere")
		}
	}
	if entries, _ := h.accounts.AuditLog(t.Context(), "sign_out.everywhere", time.Time{}, [16]byte{}); len(entries) != 1 {
		t.Errorf("sign-out everywhere audited %d times", len(entries))
	}
}
