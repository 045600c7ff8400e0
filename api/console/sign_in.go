package console

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/console"
)

// signInView is the sign-in form's own data.
type signInView struct {
	Email string
	// Action is where the form posts to, keeping the page to return to.
	Action string
	// Passkey is where the passkey script posts its answer, keeping the
	// page to return to too.
	Passkey string
	// Elsewhere is the sign-in page at the origin passkeys work at, when
	// this one was opened at another ("" when here).
	Elsewhere string
}

// signInAction is the form's address, with the page the sign-in
// interrupted.
func signInAction(c *fiber.Ctx) string {
	if next := c.Query("next"); next != "" {
		return Base + "/sign-in?next=" + url.QueryEscape(nextPath(next))
	}
	return Base + "/sign-in"
}

// signInNotices are the notices the sign-in page shows, by its state
// parameter.
var signInNotices = map[string]string{
	"signed_out": "sign_in.signed_out", "signed_out_everywhere": "sign_in.signed_out_everywhere",
}

// accountRoutes are signing in and out, the home page and the language
// switch.
func accountRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/", access: signedIn, handle: (*server).home},
		{method: fiber.MethodGet, path: "/sign-in", access: public, handle: (*server).signInPage},
		{method: fiber.MethodPost, path: "/sign-in", access: public, handle: (*server).signIn},
		{method: fiber.MethodPost, path: "/sign-out", access: signedIn, handle: (*server).signOut},
		{method: fiber.MethodGet, path: "/language/:lang", access: public, handle: (*server).chooseLanguage},
	}
}

// home sends an account to its first screen, or says it has none yet.
func (s *server) home(c *fiber.Ctx) error {
	v := s.view(c, "home.title")
	if len(v.Nav) > 0 {
		return c.Redirect(v.Nav[0].Path, fiber.StatusSeeOther)
	}
	return s.pages.render(c, fiber.StatusOK, "home.html", v)
}

// signInPage shows the sign-in form; a signed-in account goes home.
func (s *server) signInPage(c *fiber.Ctx) error {
	if _, ok := sessionOf(c); ok {
		return c.Redirect(Base+"/", fiber.StatusSeeOther)
	}
	v := s.view(c, "sign_in.title")
	if key, ok := signInNotices[c.Query("state")]; ok {
		v.Notice = v.T(key)
	}
	if c.Query("next") != "" {
		v.Notice = v.T("sign_in.needed")
	}
	v.Data = s.signInData(c, "")
	return s.pages.render(c, fiber.StatusOK, "sign_in.html", v)
}

// maxEmailLength bounds the address a failed sign-in's audit entry keeps.
const maxEmailLength = 254

// signIn checks the form and opens a session: a wrong e-mail address,
// password or code gets 401 and the form again, too many failures 429.
// Successes and failures are audited; throttled attempts are not, so a
// flood of them cannot fill the log.
func (s *server) signIn(c *fiber.Ctx) error {
	email := strings.ToLower(strings.TrimSpace(c.FormValue("email")))
	if len(email) > maxEmailLength {
		email = email[:maxEmailLength]
	}
	code := strings.TrimSpace(c.FormValue("code"))
	signIn, detail := s.Service.Accounts.SignIn, ""
	if !totpShaped(code) {
		signIn, detail = s.Service.Accounts.SignInWithRecoveryCode, "recovery code"
	}
	sess, err := signIn(c.UserContext(), email, c.FormValue("password"), code, s.address(c))
	v := s.view(c, "sign_in.title")
	v.Data = s.signInData(c, email)
	switch {
	case errors.Is(err, console.ErrThrottled):
		c.Set(fiber.HeaderRetryAfter, "900")
		v.Problem = v.T("sign_in.throttled")
		return s.pages.render(c, fiber.StatusTooManyRequests, "sign_in.html", v)
	case errors.Is(err, console.ErrSignInRefused):
		entry := s.actor(c, console.User{Email: email}).Entry("sign_in", "", detail, console.Refused)
		entry.Actor = nil
		if err := s.Service.Accounts.Audit(c.UserContext(), entry); err != nil {
			return s.failed(c, err)
		}
		v.Problem = v.T("sign_in.refused")
		return s.pages.render(c, fiber.StatusUnauthorized, "sign_in.html", v)
	case err != nil:
		return s.failed(c, err)
	}
	if detail != "" {
		left, err := s.Service.Accounts.RecoveryCodesLeft(c.UserContext(), sess.User.ID)
		if err != nil {
			return s.failed(c, err)
		}
		detail = fmt.Sprintf("recovery code, %d left", left)
	}
	if err := s.Service.Accounts.Audit(c.UserContext(), s.actor(c, sess.User).Entry("sign_in", "", detail, console.Succeeded)); err != nil {
		return s.failed(c, err)
	}
	setSessionCookie(c, sess.Token)
	return c.Redirect(nextPath(c.Query("next")), fiber.StatusSeeOther)
}

// totpShaped says whether a code is a TOTP code's six digits; anything
// else is taken for a recovery code.
func totpShaped(code string) bool {
	if len(code) != 6 {
		return false
	}
	for _, r := range code {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// signInData is the sign-in page's data, the address typed kept.
func (s *server) signInData(c *fiber.Ctx, email string) signInView {
	passkey := Base + "/sign-in/passkey"
	if next := c.Query("next"); next != "" {
		passkey += "?next=" + url.QueryEscape(nextPath(next))
	}
	return signInView{Email: email, Action: signInAction(c), Passkey: passkey, Elsewhere: s.passkeysElsewhere(c, Base+"/sign-in")}
}

// forgetSession makes the browser forget its session's cookie.
func forgetSession(c *fiber.Ctx) {
	c.Cookie(&fiber.Cookie{
		Name: sessionCookie, Value: "", Path: "/", Secure: true, HTTPOnly: true, SameSite: fiber.CookieSameSiteStrictMode,
		Expires: time.Unix(0, 0),
	})
}

// setSessionCookie hands a new session's token to the browser.
func setSessionCookie(c *fiber.Ctx, token string) {
	c.Cookie(&fiber.Cookie{
		Name: sessionCookie, Value: token, Path: "/", Secure: true, HTTPOnly: true, SameSite: fiber.CookieSameSiteStrictMode,
	})
}

// nextPath is where to go after signing in: the console page the
// sign-in interrupted, never another site.
func nextPath(next string) string {
	if strings.HasPrefix(next, Base+"/") && !strings.ContainsAny(next, "\\") && !strings.HasPrefix(next, Base+"//") {
		return next
	}
	return Base + "/"
}

// signOut ends the session and forgets its cookie.
func (s *server) signOut(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	if err := s.Service.Accounts.SignOut(c.UserContext(), sess.Token); err != nil {
		return s.failed(c, err)
	}
	if err := s.Service.Accounts.Audit(c.UserContext(), s.actor(c, sess.User).Entry("sign_out", "", "", console.Succeeded)); err != nil {
		return s.failed(c, err)
	}
	forgetSession(c)
	return c.Redirect(Base+"/sign-in?state=signed_out", fiber.StatusSeeOther)
}

// chooseLanguage keeps the language picked in the switch for a year and
// returns to the page it was picked on. The choice is the browser's
// preference, not the account's, so it needs no session.
func (s *server) chooseLanguage(c *fiber.Ctx) error {
	lang := c.Params("lang")
	known := false
	for _, l := range languages {
		known = known || string(l.Code) == lang
	}
	if !known {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	c.Cookie(&fiber.Cookie{
		Name: languageCookie, Value: lang, Path: Base, Secure: true, HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
		Expires: time.Now().AddDate(1, 0, 0),
	})
	back := Base + "/"
	if ref, err := url.Parse(c.Get(fiber.HeaderReferer)); err == nil && ref.Host == string(c.Request().Host()) {
		back = nextPath(ref.RequestURI())
	}
	return c.Redirect(back, fiber.StatusSeeOther)
}
