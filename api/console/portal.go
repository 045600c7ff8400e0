package console

import (
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/foundation/recordid"
)

// sellerAdmins and sellerUsers are the seller roles of the portal's routes.
var (
	sellerAdmins = []console.Role{console.Admin}
	sellerUsers  = []console.Role{console.Admin, console.Agent}
)

// portalHomeRoutes are the merchant portal's home, every seller user's
// first screen.
func portalHomeRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/portal", access: byRole, sellers: sellerUsers, nav: "nav.portal", handle: (*server).portalHome},
	}
}

// portalAdminRoutes are the seller admin's users and API credentials.
// Every record is looked up within the signed-in user's seller: another
// seller's answers 404.
func portalAdminRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/portal/users", access: byRole, sellers: sellerAdmins, nav: "nav.portal_users", handle: (*server).usersPage},
		{method: fiber.MethodPost, path: "/portal/users", access: byRole, sellers: sellerAdmins, handle: (*server).inviteUser},
		{method: fiber.MethodPost, path: "/portal/users/:user/invite", access: byRole, sellers: sellerAdmins, handle: (*server).reinviteUser},
		{method: fiber.MethodPost, path: "/portal/users/:user/disable", access: byRole, sellers: sellerAdmins, handle: (*server).disableUser},
		{method: fiber.MethodGet, path: "/portal/credentials", access: byRole, sellers: sellerAdmins, nav: "nav.portal_credentials", handle: (*server).credentialsPage},
		{method: fiber.MethodPost, path: "/portal/credentials", access: byRole, sellers: sellerAdmins, handle: (*server).createCredential},
		{method: fiber.MethodPost, path: "/portal/credentials/:credential/rotate", access: byRole, sellers: sellerAdmins, handle: (*server).rotateCredential},
		{method: fiber.MethodPost, path: "/portal/credentials/:credential/revoke", access: byRole, sellers: sellerAdmins, handle: (*server).revokeCredential},
	}
}

// portalHomeView is the portal home's own data.
type portalHomeView struct {
	Seller string
	// Screens are the portal's screens the user's role opens.
	Screens []navLink
}

// portalHome greets a seller user with their seller and the screens their
// role opens.
func (s *server) portalHome(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	name, err := s.Service.SellerName(c.UserContext(), *sess.User.SellerID)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal.title")
	data := portalHomeView{Seller: name}
	for _, l := range v.Nav {
		if l.Path != Base+"/portal" {
			data.Screens = append(data.Screens, l)
		}
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "portal_home.html", v)
}

// usersView is the users page's own data.
type usersView struct {
	Users []userRow
	Roles []option
	// Email is the invitation form's address, kept when it was refused.
	Email string
	// Invited is the invitation just made, to hand over; shown once.
	Invited *invitedLink
}

// userRow is one of the seller's users as the page lists them.
type userRow struct {
	ID, Email, Role, Status, StatusCode, Created, CreatedISO string
	// Self is the signed-in user, who cannot disable themselves.
	Self bool
}

// invitedLink is an invitation's link for the admin to copy.
type invitedLink struct{ Email, Link, Expires string }

// usersPage lists the seller's users with the invitation form.
func (s *server) usersPage(c *fiber.Ctx) error {
	return s.renderUsers(c, fiber.StatusOK, s.view(c, "portal.users.title"), usersView{})
}

// renderUsers writes the users page with a status and what the action
// before it left (an invitation's link, a refused address).
func (s *server) renderUsers(c *fiber.Ctx, status int, v view, data usersView) error {
	sess, _ := sessionOf(c)
	users, err := s.Service.Accounts.SellerUsers(c.UserContext(), *sess.User.SellerID)
	if err != nil {
		return s.failed(c, err)
	}
	for _, u := range users {
		data.Users = append(data.Users, userRow{
			ID: u.ID.String(), Email: u.Email, Role: v.T("role." + string(u.Role)), Status: v.T("portal.users.status." + string(u.Status)),
			StatusCode: string(u.Status), Created: formatTime(u.CreatedAt), CreatedISO: isoTime(u.CreatedAt), Self: u.ID == sess.User.ID,
		})
	}
	chosen := c.FormValue("role", string(console.Agent))
	for _, r := range console.SellerRoles {
		data.Roles = append(data.Roles, option{Value: string(r), Label: v.T("role." + string(r)), Selected: string(r) == chosen})
	}
	v.Data = data
	// After a form's post the page is the list's, whatever address it posted to.
	c.Set("HX-Replace-Url", Base+"/portal/users")
	return s.pages.render(c, status, "portal_users.html", v)
}

// inviteUser makes an account of the seller for the form's address and
// role and shows its invitation link once.
func (s *server) inviteUser(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	v := s.view(c, "portal.users.title")
	email := strings.TrimSpace(c.FormValue("email"))
	role, err := console.ParseSellerRole(c.FormValue("role"))
	if err != nil {
		v.Problem = v.T("portal.users.bad_role")
		return s.renderUsers(c, fiber.StatusUnprocessableEntity, v, usersView{Email: email})
	}
	inv, err := s.Service.InviteSellerUser(c.UserContext(), s.actor(c, sess.User), email, role)
	switch {
	case errors.Is(err, console.ErrNotAnEmail):
		v.Problem = v.T("portal.users.bad_email")
		return s.renderUsers(c, fiber.StatusUnprocessableEntity, v, usersView{Email: email})
	case errors.Is(err, console.ErrEmailTaken):
		v.Problem = v.T("portal.users.taken")
		return s.renderUsers(c, fiber.StatusConflict, v, usersView{Email: email})
	case err != nil:
		return s.failed(c, err)
	}
	return s.showInvitation(c, v, inv)
}

// showInvitation writes the users page with an invitation's link.
func (s *server) showInvitation(c *fiber.Ctx, v view, inv console.Invitation) error {
	v.Notice = v.Tf("portal.users.invited", inv.User.Email)
	return s.renderUsers(c, fiber.StatusOK, v, usersView{Invited: &invitedLink{
		Email: inv.User.Email, Link: s.Service.InvitationLink(inv), Expires: formatTime(inv.ExpiresAt),
	}})
}

// reinviteUser makes a new invitation link for one of the seller's users.
func (s *server) reinviteUser(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("user"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	sess, _ := sessionOf(c)
	inv, err := s.Service.ReinviteSellerUser(c.UserContext(), s.actor(c, sess.User), id)
	switch {
	case errors.Is(err, console.ErrNoSellerUser):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case err != nil:
		return s.failed(c, err)
	}
	return s.showInvitation(c, s.view(c, "portal.users.title"), inv)
}

// disableUser disables one of the seller's users (not the admin doing it).
func (s *server) disableUser(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("user"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	sess, _ := sessionOf(c)
	err = s.Service.DisableSellerUser(c.UserContext(), s.actor(c, sess.User), id)
	v := s.view(c, "portal.users.title")
	switch {
	case errors.Is(err, console.ErrNoSellerUser):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case errors.Is(err, console.ErrDisableSelf):
		v.Problem = v.T("portal.users.disable_self")
		return s.renderUsers(c, fiber.StatusUnprocessableEntity, v, usersView{})
	case err != nil:
		return s.failed(c, err)
	}
	v.Notice = v.T("portal.users.disabled")
	return s.renderUsers(c, fiber.StatusOK, v, usersView{})
}

// credentialsView is the credentials page's own data.
type credentialsView struct {
	Items []credentialRow
	// Secret is a secret just made, shown this once.
	Secret *shownSecret
}

// credentialRow is one of the seller's API clients as the page lists it.
type credentialRow struct {
	ClientID, Created, CreatedISO, Rotated, Revoked string
	Live                                            bool
}

// shownSecret is a client's new secret.
type shownSecret struct{ ClientID, Secret string }

// credentialsPage lists the seller's API clients.
func (s *server) credentialsPage(c *fiber.Ctx) error {
	return s.renderCredentials(c, fiber.StatusOK, s.view(c, "portal.credentials.title"), nil)
}

// renderCredentials writes the credentials page with a status and a
// secret to show once.
func (s *server) renderCredentials(c *fiber.Ctx, status int, v view, secret *shownSecret) error {
	sess, _ := sessionOf(c)
	creds, err := s.Service.Credentials(c.UserContext(), s.actor(c, sess.User))
	if err != nil {
		return s.failed(c, err)
	}
	data := credentialsView{Secret: secret}
	for _, cr := range creds {
		row := credentialRow{ClientID: cr.ClientID, Created: formatTime(cr.CreatedAt), CreatedISO: isoTime(cr.CreatedAt), Live: cr.RevokedAt == nil}
		if cr.RotatedAt != nil {
			row.Rotated = formatTime(*cr.RotatedAt)
		}
		if cr.RevokedAt != nil {
			row.Revoked = formatTime(*cr.RevokedAt)
		}
		data.Items = append(data.Items, row)
	}
	v.Data = data
	c.Set("HX-Replace-Url", Base+"/portal/credentials")
	return s.pages.render(c, status, "portal_credentials.html", v)
}

// createCredential gives the seller another API client and shows its
// secret once.
func (s *server) createCredential(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	creds, err := s.Service.CreateCredential(c.UserContext(), s.actor(c, sess.User))
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal.credentials.title")
	v.Notice = v.Tf("portal.credentials.created", creds.ClientID)
	return s.renderCredentials(c, fiber.StatusOK, v, &shownSecret{ClientID: creds.ClientID, Secret: creds.ClientSecret})
}

// rotateCredential replaces a client's secret and shows the new one once.
func (s *server) rotateCredential(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	creds, err := s.Service.RotateCredential(c.UserContext(), s.actor(c, sess.User), c.Params("credential"))
	switch {
	case errors.Is(err, auth.ErrNoCredential):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case err != nil:
		return s.failed(c, err)
	}
	v := s.view(c, "portal.credentials.title")
	v.Notice = v.Tf("portal.credentials.rotated", creds.ClientID)
	return s.renderCredentials(c, fiber.StatusOK, v, &shownSecret{ClientID: creds.ClientID, Secret: creds.ClientSecret})
}

// revokeCredential revokes a client for good.
func (s *server) revokeCredential(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	clientID := c.Params("credential")
	err := s.Service.RevokeCredential(c.UserContext(), s.actor(c, sess.User), clientID)
	switch {
	case errors.Is(err, auth.ErrNoCredential):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case err != nil:
		return s.failed(c, err)
	}
	v := s.view(c, "portal.credentials.title")
	v.Notice = v.Tf("portal.credentials.revoked", clientID)
	return s.renderCredentials(c, fiber.StatusOK, v, nil)
}
