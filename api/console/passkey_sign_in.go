package console

import (
	"errors"
	"fmt"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/console"
)

// passkeySignInOptions starts a sign-in with a passkey: the options for
// navigator.credentials.get, as JSON, naming no account.
func (s *server) passkeySignInOptions(c *fiber.Ctx) error {
	options, err := s.Service.Accounts.BeginPasskeySignIn(c.UserContext())
	if err != nil {
		return s.failedJSON(c, err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(options)
}

// passkeySignIn checks the browser's answer and opens a session as the
// password's sign-in does: the same cookie, audit entries and throttle
// (401 with the same words for every refusal, 429 after too many).
func (s *server) passkeySignIn(c *fiber.Ctx) error {
	sess, passkey, email, err := s.Service.Accounts.PasskeySignIn(c.UserContext(), c.Body(), s.address(c))
	v := s.view(c, "sign_in.title")
	switch {
	case errors.Is(err, console.ErrThrottled):
		c.Set(fiber.HeaderRetryAfter, "900")
		return s.answer(c, fiber.StatusTooManyRequests, passkeyAnswer{Problem: v.T("sign_in.throttled")})
	case errors.Is(err, console.ErrSignInRefused):
		entry := s.actor(c, console.User{Email: email}).Entry("sign_in", "", passkeyDetail(passkey, err), console.Refused)
		entry.Actor = nil
		if err := s.Service.Accounts.Audit(c.UserContext(), entry); err != nil {
			return s.failedJSON(c, err)
		}
		return s.answer(c, fiber.StatusUnauthorized, passkeyAnswer{Problem: v.T("sign_in.passkey_refused")})
	case err != nil:
		return s.failedJSON(c, err)
	}
	if err := s.Service.Accounts.Audit(c.UserContext(), s.actor(c, sess.User).Entry("sign_in", "", passkeyDetail(passkey, nil), console.Succeeded)); err != nil {
		return s.failedJSON(c, err)
	}
	setSessionCookie(c, sess.Token)
	return s.answer(c, fiber.StatusOK, passkeyAnswer{Redirect: nextPath(c.Query("next"))})
}

// passkeyDetail is a passkey sign-in's audit detail: the passkey's name
// and, when refused, why.
func passkeyDetail(p console.Passkey, refused error) string {
	d := "passkey"
	if p.Name != "" {
		d = fmt.Sprintf("passkey %q", p.Name)
	}
	if refused != nil {
		d += ": " + refused.Error()
	}
	return d
}
