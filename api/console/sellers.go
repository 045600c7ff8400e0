package console

import (
	"errors"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// sellersPath is the list of sellers.
const sellersPath = Base + "/sellers"

// sellerRoutes are the sellers' pages: admins change, finance reads.
func sellerRoutes() []route {
	readers := []console.Role{console.Admin, console.Finance}
	admins := []console.Role{console.Admin}
	return []route{
		{method: fiber.MethodGet, path: "/sellers", access: byRole, operators: readers, nav: "nav.sellers", handle: (*server).sellers},
		{method: fiber.MethodPost, path: "/sellers", access: byRole, operators: admins, handle: (*server).createSeller},
		{method: fiber.MethodGet, path: "/sellers/:seller", access: byRole, operators: readers, handle: (*server).seller},
		{method: fiber.MethodPost, path: "/sellers/:seller/profile", access: byRole, operators: admins, handle: (*server).updateSellerProfile},
		{method: fiber.MethodPost, path: "/sellers/:seller/rotate", access: byRole, operators: admins, handle: (*server).rotateClient},
		{method: fiber.MethodPost, path: "/sellers/:seller/revoke", access: byRole, operators: admins, handle: (*server).revokeClient},
	}
}

// sellersView is the list's own data.
type sellersView struct {
	Sellers []sellerRow
	// Next is the next page's address; "" on the last.
	Next string
	// CanCreate shows the form to register a seller.
	CanCreate bool
	// Name and Currency keep a refused form's values.
	Name, Currency string
}

// sellerRow is a seller in the list.
type sellerRow struct {
	ID, Name, Currency, Created, CreatedISO string
	Clients                                 int64
}

// sellers lists the sellers by name, a page after the after_name and
// after_id parameters.
func (s *server) sellers(c *fiber.Ctx) error {
	return s.renderSellers(c, fiber.StatusOK, s.view(c, "sellers.title"), sellersView{Currency: "EUR"})
}

// renderSellers writes a page of the list with a status, after a refused
// registration too.
func (s *server) renderSellers(c *fiber.Ctx, status int, v view, data sellersView) error {
	afterID := uuid.Nil
	if raw := c.Query("after_id"); raw != "" {
		id, err := recordid.Parse(raw)
		if err != nil {
			return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
		}
		afterID = id
	}
	rows, err := s.Service.OperatorSellers.List(c.UserContext(), c.Query("after_name"), afterID)
	if err != nil {
		return s.failed(c, err)
	}
	for _, r := range rows {
		data.Sellers = append(data.Sellers, sellerRow{ID: r.ID.String(), Name: r.Name, Currency: r.Currency,
			Created: formatTime(r.CreatedAt), CreatedISO: isoTime(r.CreatedAt), Clients: r.Clients})
	}
	if len(rows) == services.SellersPageSize {
		last := rows[len(rows)-1]
		data.Next = sellersPath + "?" + url.Values{"after_name": {last.Name}, "after_id": {last.ID.String()}}.Encode()
	}
	data.CanCreate = v.User != nil && v.User.Role == console.Admin
	v.Data = data
	return s.pages.render(c, status, "sellers.html", v)
}

// createSeller registers a seller and shows its page with the first API
// client's secret, once.
func (s *server) createSeller(c *fiber.Ctx) error {
	sess, _ := sessionOf(c)
	created, err := s.Service.OperatorSellers.Create(c.UserContext(), s.actor(c, sess.User), c.FormValue("name"), c.FormValue("currency"))
	if errors.Is(err, services.ErrSellerInput) {
		v := s.view(c, "sellers.title")
		v.Problem = v.T("sellers.input")
		c.Set("HX-Replace-Url", sellersPath)
		return s.renderSellers(c, fiber.StatusUnprocessableEntity, v, sellersView{Name: c.FormValue("name"), Currency: c.FormValue("currency")})
	}
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "seller.title")
	v.Notice = v.T("seller.created")
	c.Set("HX-Replace-Url", sellersPath+"/"+created.Seller.ID.String())
	return s.renderSeller(c, fiber.StatusCreated, v, created.Seller.ID, &secretView{ClientID: created.Credentials.ClientID, Secret: created.Credentials.ClientSecret})
}

// sellerParam is the seller the path names; false (answered 404) when it
// is no id.
func (s *server) sellerParam(c *fiber.Ctx) (uuid.UUID, bool) {
	id, err := recordid.Parse(c.Params("seller"))
	return id, err == nil
}

// seller shows a seller: profile, contractual entity, API clients, webhook
// endpoints and users.
func (s *server) seller(c *fiber.Ctx) error {
	id, ok := s.sellerParam(c)
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	v := s.view(c, "seller.title")
	if key, ok := sellerNotices[c.Query("done")]; ok {
		v.Notice = v.T(key)
	}
	return s.renderSeller(c, fiber.StatusOK, v, id, nil)
}

// sellerNotices are the notices the seller's page shows after a change,
// by its done parameter.
var sellerNotices = map[string]string{"profile": "seller.profile_saved", "revoked": "seller.revoked"}

// updateSellerProfile changes a seller's names, e-mail address and
// contractual entity; refused values are named on the page, nothing saved.
func (s *server) updateSellerProfile(c *fiber.Ctx) error {
	id, ok := s.sellerParam(c)
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	sess, _ := sessionOf(c)
	err := s.Service.OperatorSellers.UpdateProfile(c.UserContext(), s.actor(c, sess.User), id, services.ProfileChange{
		Name: c.FormValue("name"), PrettyName: c.FormValue("pretty_name"), Email: c.FormValue("email"),
		ContractualEntity: c.FormValue("contractual_entity"),
	})
	var refused *services.ProfileRefusedError
	switch {
	case err == nil:
		return c.Redirect(sellersPath+"/"+id.String()+"?done=profile", fiber.StatusSeeOther)
	case errors.Is(err, services.ErrSellerNotFound):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case errors.As(err, &refused):
		v := s.view(c, "seller.title")
		v.Problem = v.Tf("seller.profile_refused", refused.Error())
		c.Set("HX-Replace-Url", sellersPath+"/"+id.String())
		return s.renderSeller(c, fiber.StatusUnprocessableEntity, v, id, nil)
	}
	return s.failed(c, err)
}

// rotateClient gives one of the seller's API clients a new secret and
// shows it, once.
func (s *server) rotateClient(c *fiber.Ctx) error {
	id, ok := s.sellerParam(c)
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	sess, _ := sessionOf(c)
	creds, err := s.Service.OperatorSellers.RotateSecret(c.UserContext(), s.actor(c, sess.User), id, c.FormValue("client_id"))
	if errors.Is(err, services.ErrUnknownClient) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "seller.title")
	v.Notice = v.T("seller.rotated")
	c.Set("HX-Replace-Url", sellersPath+"/"+id.String())
	return s.renderSeller(c, fiber.StatusOK, v, id, &secretView{ClientID: creds.ClientID, Secret: creds.ClientSecret})
}

// revokeClient removes one of the seller's API clients.
func (s *server) revokeClient(c *fiber.Ctx) error {
	id, ok := s.sellerParam(c)
	if !ok {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	sess, _ := sessionOf(c)
	err := s.Service.OperatorSellers.Revoke(c.UserContext(), s.actor(c, sess.User), id, c.FormValue("client_id"))
	if errors.Is(err, services.ErrUnknownClient) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	return c.Redirect(sellersPath+"/"+id.String()+"?done=revoked", fiber.StatusSeeOther)
}

// sellerView is a seller's page's own data.
type sellerView struct {
	ID, Name, PrettyName, Email, Currency, Entity string
	Entities                                      []option
	Clients                                       []clientView
	Endpoints                                     []endpointView
	Users                                         []userView
	// Secret is a secret just issued, shown this once.
	Secret *secretView
	// CanChange shows the forms (admins).
	CanChange bool
}

// clientView is one of the seller's API clients.
type clientView struct {
	ClientID, Created, Rotated string
	Generation                 int32
}

// endpointView is one of the seller's webhook endpoints, its secret never.
type endpointView struct {
	URL, Events, Description, Disabled string
}

// userView is one of the seller's users in the console.
type userView struct {
	Email, Role, Disabled string
}

// secretView is a client secret issued just now.
type secretView struct {
	ClientID, Secret string
}

// renderSeller writes a seller's page with a status and, when one was
// issued, a client secret.
func (s *server) renderSeller(c *fiber.Ctx, status int, v view, id uuid.UUID, secret *secretView) error {
	page, err := s.Service.OperatorSellers.Page(c.UserContext(), id)
	if errors.Is(err, services.ErrSellerNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	endpoints, err := s.Service.Webhooks.ListEndpoints(c.UserContext(), id)
	if err != nil {
		return s.failed(c, err)
	}
	p := page.Profile
	data := sellerView{ID: id.String(), Name: p.Name, PrettyName: p.PrettyName, Email: p.Email, Currency: p.Currency,
		Entity: p.ContractualEntity, Secret: secret, CanChange: v.User != nil && v.User.Role == console.Admin}
	data.Entities = append(data.Entities, option{Value: "", Label: v.T("seller.entity_default"), Selected: p.ContractualEntity == ""})
	for _, e := range s.Service.OperatorSellers.EntityIDs() {
		data.Entities = append(data.Entities, option{Value: e, Label: e, Selected: e == p.ContractualEntity})
	}
	for _, cr := range page.Credentials {
		cv := clientView{ClientID: cr.ClientID, Created: formatTime(cr.CreatedAt), Rotated: v.T("offer.none"), Generation: cr.Generation}
		if cr.RotatedAt != nil {
			cv.Rotated = formatTime(*cr.RotatedAt)
		}
		data.Clients = append(data.Clients, cv)
	}
	for _, e := range endpoints {
		ev := endpointView{URL: e.URL, Events: strings.Join(e.Events, ", "), Description: e.Description}
		if ev.Events == "" {
			ev.Events = v.T("seller.all_events")
		}
		if e.DisabledAt != nil {
			ev.Disabled = formatTime(*e.DisabledAt)
		}
		data.Endpoints = append(data.Endpoints, ev)
	}
	for _, u := range page.Users {
		uv := userView{Email: u.Email, Role: v.T("role." + u.Role)}
		if u.DisabledAt != nil {
			uv.Disabled = formatTime(*u.DisabledAt)
		}
		data.Users = append(data.Users, uv)
	}
	v.Title = v.T("seller.title") + ": " + p.Name
	v.Data = data
	return s.pages.render(c, status, "seller.html", v)
}
