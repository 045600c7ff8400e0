package console

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/services"
)

// portalProfilePath is the signed-in seller user's sales profile.
const portalProfilePath = Base + "/portal/profile"

// portalProfileRoutes are the seller user's own sales profile: the name
// and phone the offer builder fills in as the offer's sales agent.
func portalProfileRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/portal/profile", access: byRole, sellers: portalSellers, nav: "nav.portal_profile", handle: (*server).portalProfile},
		{method: fiber.MethodPost, path: "/portal/profile", access: byRole, sellers: portalSellers, handle: (*server).savePortalProfile},
	}
}

// profileView is the profile page's own data: the form's values and the
// problem of each field.
type profileView struct {
	FullName, Phone               string
	FullNameProblem, PhoneProblem string
	// Updated is when the profile was last saved; "" when never.
	Updated, UpdatedISO string
}

// portalProfile shows the user's sales profile to edit.
func (s *server) portalProfile(c *fiber.Ctx) error {
	u, _, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	p, err := s.Service.SalesProfileOf(c.UserContext(), u)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal_profile.title")
	if c.Query("done") == "saved" {
		v.Notice = v.T("portal_profile.saved")
	}
	return s.renderProfile(c, fiber.StatusOK, v, p, nil)
}

// savePortalProfile keeps the user's sales profile and shows it again, or
// shows the form with each refused field's problem beside it (422).
func (s *server) savePortalProfile(c *fiber.Ctx) error {
	u, _, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	typed := services.SalesProfile{FullName: c.FormValue("full_name"), Phone: c.FormValue("phone")}
	_, err = s.Service.SaveSalesProfile(c.UserContext(), s.actor(c, u), typed)
	var problems services.ProfileProblems
	switch {
	case err == nil:
		return c.Redirect(portalProfilePath+"?done=saved", fiber.StatusSeeOther)
	case errors.As(err, &problems):
		v := s.view(c, "portal_profile.title")
		v.Problem = v.T("portal_profile.refused")
		return s.renderProfile(c, fiber.StatusUnprocessableEntity, v, typed, problems)
	}
	return s.failed(c, err)
}

// renderProfile writes the profile page with the values and problems.
func (s *server) renderProfile(c *fiber.Ctx, status int, v view, p services.SalesProfile, problems services.ProfileProblems) error {
	data := profileView{FullName: p.FullName, Phone: p.Phone}
	if key := problems["full_name"]; key != "" {
		data.FullNameProblem = v.T("portal_profile.problem." + key)
	}
	if key := problems["phone"]; key != "" {
		data.PhoneProblem = v.T("portal_profile.problem." + key)
	}
	if !p.UpdatedAt.IsZero() {
		data.Updated, data.UpdatedISO = formatTime(p.UpdatedAt), isoTime(p.UpdatedAt)
	}
	v.Data = data
	return s.pages.render(c, status, "portal_profile.html", v)
}
