package console

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/domain/console"
)

// accountPath is the Account page: every signed-in account's passkeys,
// recovery codes and sessions.
const accountPath = Base + "/account"

// accountView is the Account page's own data.
type accountView struct {
	Passkeys []passkeyRow
	// CodesLeft is how many unused recovery codes the account has.
	CodesLeft int
	// NewCodes are recovery codes just made, shown this once.
	NewCodes []string
	// Elsewhere is this page at the origin passkeys work at, when it was
	// opened at another ("" when here).
	Elsewhere string
}

// passkeyRow is a passkey as the Account page lists it.
type passkeyRow struct {
	// ID is the credential id, base64url, as its remove path names it.
	ID, Name, Created, CreatedISO, LastUsed string
}

// accountNotices are the notices the Account page shows after an action,
// by its state parameter.
var accountNotices = map[string]string{
	"passkey_added": "account.passkey_added", "passkey_removed": "account.passkey_removed",
}

// accountPageRoutes are the Account page and its actions, open to every
// signed-in account, and the sign-in with a passkey.
func accountPageRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/account", access: signedIn, nav: "nav.account", handle: (*server).accountPage},
		{method: fiber.MethodPost, path: "/account/passkeys/options", access: signedIn, handle: (*server).passkeyOptions},
		{method: fiber.MethodPost, path: "/account/passkeys", access: signedIn, handle: (*server).addPasskey},
		{method: fiber.MethodPost, path: "/account/passkeys/:passkey/remove", access: signedIn, handle: (*server).removePasskey},
		{method: fiber.MethodPost, path: "/account/recovery-codes", access: signedIn, handle: (*server).newRecoveryCodes},
		{method: fiber.MethodPost, path: "/account/sign-out-everywhere", access: signedIn, handle: (*server).signOutEverywhere},
		{method: fiber.MethodPost, path: "/sign-in/passkey/options", access: public, handle: (*server).passkeySignInOptions},
		{method: fiber.MethodPost, path: "/sign-in/passkey", access: public, handle: (*server).passkeySignIn},
	}
}

// accountPage shows the account's passkeys and recovery codes.
func (s *server) accountPage(c *fiber.Ctx) error {
	v := s.view(c, "account.title")
	if key, ok := accountNotices[c.Query("state")]; ok {
		v.Notice = v.T(key)
	}
	return s.renderAccount(c, fiber.StatusOK, v, nil)
}

// renderAccount writes the Account page, with recovery codes just made.
func (s *server) renderAccount(c *fiber.Ctx, status int, v view, newCodes []string) error {
	sess, _ := sessionOf(c)
	keys, err := s.Service.Accounts.Passkeys(c.UserContext(), sess.User.ID)
	if err != nil {
		return s.failed(c, err)
	}
	left, err := s.Service.Accounts.RecoveryCodesLeft(c.UserContext(), sess.User.ID)
	if err != nil {
		return s.failed(c, err)
	}
	data := accountView{CodesLeft: left, NewCodes: newCodes, Elsewhere: s.passkeysElsewhere(c, accountPath)}
	for _, k := range keys {
		row := passkeyRow{ID: base64.RawURLEncoding.EncodeToString(k.ID), Name: k.Name, Created: formatTime(k.CreatedAt),
			CreatedISO: isoTime(k.CreatedAt), LastUsed: v.T("account.never")}
		if k.LastUsedAt != nil {
			row.LastUsed = formatTime(*k.LastUsedAt)
		}
		data.Passkeys = append(data.Passkeys, row)
	}
	v.Data = data
	return s.pages.render(c, status, "account.html", v)
}

// passkeysElsewhere is path at the origin passkeys are bound to, when the
// request came to another (the browser would refuse them here); "" when
// it came to that origin.
func (s *server) passkeysElsewhere(c *fiber.Ctx, path string) string {
	origin := s.Service.Accounts.RelyingParty.Origin()
	if u, err := url.Parse(origin); err == nil && u.Host == string(c.Request().Host()) {
		return ""
	}
	return origin + path
}

// passkeyOptions starts registering a passkey: the options for
// navigator.credentials.create, as JSON.
func (s *server) passkeyOptions(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	options, err := s.Service.Accounts.BeginPasskeyRegistration(c.UserContext(), sess.User)
	if err != nil {
		return s.failedJSON(c, err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(options)
}

// newPasskey is what the Account page's script posts: the name given and
// the browser's answer to the challenge.
type newPasskey struct {
	Name       string          `json:"name"`
	Credential json.RawMessage `json:"credential"`
}

// addPasskey completes a passkey's registration and keeps it; refusals
// are answered 400 with the reason, and audited.
func (s *server) addPasskey(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	v := s.view(c, "account.title")
	var body newPasskey
	if err := json.Unmarshal(c.Body(), &body); err != nil {
		return s.answer(c, fiber.StatusBadRequest, passkeyAnswer{Problem: v.T("account.passkey_malformed")})
	}
	who := s.actor(c, sess.User)
	p, err := s.Service.Accounts.FinishPasskeyRegistration(c.UserContext(), sess.User, body.Name, body.Credential)
	var problem string
	switch {
	case errors.Is(err, console.ErrPasskeyName):
		return s.answer(c, fiber.StatusBadRequest, passkeyAnswer{Problem: v.T("account.passkey_name_needed")})
	case errors.Is(err, console.ErrCeremonyGone):
		problem = v.T("account.passkey_expired")
	case errors.Is(err, console.ErrPasskeyRefused):
		problem = v.T("account.passkey_refused")
	case err != nil:
		return s.failedJSON(c, err)
	}
	if problem != "" {
		if err := s.Service.Accounts.Audit(c.UserContext(), who.Entry("passkey.add", body.Name, err.Error(), console.Refused)); err != nil {
			return s.failedJSON(c, err)
		}
		return s.answer(c, fiber.StatusBadRequest, passkeyAnswer{Problem: problem})
	}
	if err := s.Service.Accounts.Audit(c.UserContext(), who.Entry("passkey.add", p.Name, "", console.Succeeded)); err != nil {
		return s.failedJSON(c, err)
	}
	return s.answer(c, fiber.StatusOK, passkeyAnswer{Redirect: accountPath + "?state=passkey_added"})
}

// removePasskey forgets a passkey of the account; another account's or
// an unknown one answers 404.
func (s *server) removePasskey(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	id, err := base64.RawURLEncoding.DecodeString(c.Params("passkey"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	keys, err := s.Service.Accounts.Passkeys(c.UserContext(), sess.User.ID)
	if err != nil {
		return s.failed(c, err)
	}
	name := ""
	for _, k := range keys {
		if string(k.ID) == string(id) {
			name = k.Name
		}
	}
	err = s.Service.Accounts.RemovePasskey(c.UserContext(), sess.User.ID, id)
	if errors.Is(err, console.ErrNoPasskey) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	if err := s.Service.Accounts.Audit(c.UserContext(), s.actor(c, sess.User).Entry("passkey.remove", name, "", console.Succeeded)); err != nil {
		return s.failed(c, err)
	}
	return c.Redirect(accountPath+"?state=passkey_removed", fiber.StatusSeeOther)
}

// newRecoveryCodes replaces the account's recovery codes and shows the
// new ones, this once.
func (s *server) newRecoveryCodes(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	codes, err := s.Service.Accounts.NewRecoveryCodes(c.UserContext(), sess.User.ID)
	if err != nil {
		return s.failed(c, err)
	}
	if err := s.Service.Accounts.Audit(c.UserContext(), s.actor(c, sess.User).Entry("recovery_codes.new", "", "", console.Succeeded)); err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "account.title")
	v.Notice = v.T("account.codes_made")
	return s.renderAccount(c, fiber.StatusOK, v, codes)
}

// signOutEverywhere ends every session of the account, this one too.
func (s *server) signOutEverywhere(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	if err := s.Service.Accounts.SignOutEverywhere(c.UserContext(), sess.User.ID); err != nil {
		return s.failed(c, err)
	}
	if err := s.Service.Accounts.Audit(c.UserContext(), s.actor(c, sess.User).Entry("sign_out.everywhere", "", "", console.Succeeded)); err != nil {
		return s.failed(c, err)
	}
	forgetSession(c)
	return c.Redirect(Base+"/sign-in?state=signed_out_everywhere", fiber.StatusSeeOther)
}

// passkeyAnswer is what the passkey script is answered: where to go, or
// what went wrong, in the page's language.
type passkeyAnswer struct {
	Redirect string `json:"redirect,omitempty"`
	Problem  string `json:"problem,omitempty"`
}

// answer writes a JSON answer to the passkey script; never stored.
func (s *server) answer(c *fiber.Ctx, status int, a passkeyAnswer) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(status).JSON(a)
}

// failedJSON is failed for the passkey script: logged with the request
// id, which the answer names.
func (s *server) failedJSON(c *fiber.Ctx, err error) error {
	id := guard.RequestID(c)
	s.Logger.ErrorContext(c.UserContext(), "console request failed", "request_id", id, "path", c.Path(), "error", err)
	v := s.view(c, "problem.title")
	return s.answer(c, fiber.StatusInternalServerError, passkeyAnswer{Problem: fmt.Sprintf(v.T("problem.failed"), id)})
}
