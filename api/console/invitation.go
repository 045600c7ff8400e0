package console

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/domain/console"
)

// invitationView is the invitation page's own data.
type invitationView struct {
	Email, Role, ProvisioningURI, Expires, ExpiresISO string
	// Action is where the form posts; QR the provisioning URI's QR code.
	Action, QR string
}

// invitationRoutes are the pages an invitation's link opens: public, as
// the token in the link is what admits.
func invitationRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/invitation/:invitation", access: public, handle: (*server).invitationPage},
		{method: fiber.MethodGet, path: "/invitation/:invitation/qr.png", access: public, handle: (*server).invitationQR},
		{method: fiber.MethodPost, path: "/invitation/:invitation", access: public, handle: (*server).acceptInvitation},
	}
}

// invitationProblems are the pages of an invitation that cannot be
// accepted: an unknown link, a used one, an expired one.
func (s *server) invitationProblem(c *fiber.Ctx, err error) error {
	switch {
	case errors.Is(err, console.ErrNoInvitation):
		return s.problem(c, fiber.StatusNotFound, "invitation.unknown")
	case errors.Is(err, console.ErrInvitationUsed):
		return s.problem(c, fiber.StatusGone, "invitation.used")
	case errors.Is(err, console.ErrInvitationExpired):
		return s.problem(c, fiber.StatusGone, "invitation.expired")
	}
	return s.failed(c, err)
}

// invitationPage shows an open invitation: the password to choose, the
// TOTP key to add (as a QR code and as text) and the code to confirm it.
func (s *server) invitationPage(c *fiber.Ctx) error {
	return s.renderInvitation(c, fiber.StatusOK, "")
}

// renderInvitation writes the invitation's page with a status and a
// problem, or the problem page when it cannot be accepted.
func (s *server) renderInvitation(c *fiber.Ctx, status int, problemKey string) error {
	// The link's token must not travel on in a Referer.
	c.Set("Referrer-Policy", "no-referrer")
	token := c.Params("invitation")
	open, err := s.Service.Accounts.Invitation(c.UserContext(), token)
	if err != nil {
		return s.invitationProblem(c, err)
	}
	v := s.view(c, "invitation.title")
	if problemKey != "" {
		v.Problem = v.T(problemKey)
	}
	path := Base + "/invitation/" + token
	v.Data = invitationView{
		Email: open.User.Email, Role: v.T("role." + string(open.User.Role)), ProvisioningURI: open.ProvisioningURI,
		Expires: formatTime(open.ExpiresAt), ExpiresISO: isoTime(open.ExpiresAt), Action: path, QR: path + "/qr.png",
	}
	return s.pages.render(c, status, "portal_invitation.html", v)
}

// invitationQR is the QR code of an open invitation's provisioning URI,
// for an authenticator app to scan.
func (s *server) invitationQR(c *fiber.Ctx) error {
	c.Set("Referrer-Policy", "no-referrer")
	open, err := s.Service.Accounts.Invitation(c.UserContext(), c.Params("invitation"))
	if err != nil {
		return s.invitationProblem(c, err)
	}
	return s.sendQR(c, open.ProvisioningURI)
}

// acceptInvitation sets the account up with the form's password and code
// and signs it in; a short password or a wrong code show the page again
// (422), too many wrong codes 429.
func (s *server) acceptInvitation(c *fiber.Ctx) error {
	sess, err := s.Service.AcceptInvitation(c.UserContext(), c.Params("invitation"), c.FormValue("password"), c.FormValue("code"),
		s.address(c), guard.RequestID(c))
	switch {
	case errors.Is(err, console.ErrPasswordTooShort):
		return s.renderInvitation(c, fiber.StatusUnprocessableEntity, "invitation.password_short")
	case errors.Is(err, console.ErrCodeRefused):
		return s.renderInvitation(c, fiber.StatusUnprocessableEntity, "invitation.code_refused")
	case errors.Is(err, console.ErrThrottled):
		c.Set(fiber.HeaderRetryAfter, "900")
		return s.renderInvitation(c, fiber.StatusTooManyRequests, "sign_in.throttled")
	case err != nil:
		return s.invitationProblem(c, err)
	}
	setSessionCookie(c, sess.Token)
	return c.Redirect(Base+"/", fiber.StatusSeeOther)
}
