package console

import (
	"errors"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// portalOrdersPath is the list of the seller's orders.
const portalOrdersPath = Base + "/portal/orders"

// portalPageSize is how many records a page of a portal list shows.
const portalPageSize = 50

// portalOrderRoutes are the seller's orders, an order's page, and the
// changes the Seller API lets a seller make to it.
func portalOrderRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/portal/orders", access: byRole, sellers: portalSellers, nav: "nav.portal_orders", handle: (*server).portalOrders},
		{method: fiber.MethodGet, path: "/portal/orders/:order", access: byRole, sellers: portalSellers, handle: (*server).portalOrder},
		{method: fiber.MethodPost, path: "/portal/orders/:order/acknowledge", access: byRole, sellers: portalSellers, handle: changeOrder(services.AcknowledgeOrder)},
		{method: fiber.MethodPost, path: "/portal/orders/:order/confirm", access: byRole, sellers: portalSellers, handle: changeOrder(services.ConfirmOrder)},
		{method: fiber.MethodPost, path: "/portal/orders/:order/reject", access: byRole, sellers: portalSellers, handle: changeOrder(services.RejectOrder)},
		{method: fiber.MethodPost, path: "/portal/orders/:order/shipments", access: byRole, sellers: portalSellers, handle: (*server).shipOrder},
	}
}

// orderRow is an order as the list shows it.
type orderRow struct {
	ID, Reference, Company, Contact, Agent, Status, Created, CreatedISO string
}

// orderListView is the list's own data: its filter and a page.
type orderListView struct {
	Query    string
	Statuses []option
	// Filtered says a filter is set, so an empty page says nothing
	// matches rather than that nobody ordered.
	Filtered bool
	Orders   []orderRow
	// Older is the address of the next, older page; "" on the last.
	Older string
}

// orderStatuses are the statuses the list's filter offers, in an order's
// life's order.
var orderStatuses = []orders.Status{orders.Created, orders.Acknowledged, orders.Confirmed, orders.PartiallyFulfilled,
	orders.Completed, orders.Canceled, orders.Rejected}

// portalOrders lists the seller's orders, newest first, of one status or
// all, matching the search q (an order's id, or a part of its seller's
// reference, company, contact or agent), a page older than the order the
// before parameter names (keyset on the time-ordered ids).
func (s *server) portalOrders(c *fiber.Ctx) error {
	_, sellerID, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal_order.list_title")
	data := orderListView{Query: strings.TrimSpace(c.Query("q"))}
	f := listing.Filter{Descending: true, Limit: portalPageSize, Status: c.Query("status")}
	data.Statuses = []option{{Value: "", Label: v.T("portal_order.filter_all"), Selected: f.Status == ""}}
	known := f.Status == ""
	for _, st := range orderStatuses {
		known = known || string(st) == f.Status
		data.Statuses = append(data.Statuses, option{Value: string(st), Label: v.T("portal_order.status." + string(st)), Selected: string(st) == f.Status})
	}
	if !known {
		return s.problem(c, fiber.StatusBadRequest, "portal_order.filter_unknown_status", f.Status)
	}
	if id, err := recordid.Parse(data.Query); err == nil {
		f.IDGte, f.IDLte = &id, &id
	} else {
		f.Query = data.Query
	}
	data.Filtered = data.Query != "" || f.Status != ""
	if before := c.Query("before"); before != "" {
		id, err := recordid.Parse(before)
		if err != nil {
			return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
		}
		f.IDLt = &id
	}
	items, err := s.Service.Orders.Newest(c.UserContext(), sellerID, f)
	if err != nil {
		return s.failed(c, err)
	}
	for _, o := range items {
		data.Orders = append(data.Orders, orderRow{
			ID: o.ID.String(), Reference: o.SellerOfferReference, Company: o.CompanyName, Contact: o.FullName, Agent: o.AgentName,
			Status: v.T("portal_order.status." + string(o.Status)), Created: formatTime(o.CreatedAt), CreatedISO: isoTime(o.CreatedAt),
		})
	}
	if len(items) == portalPageSize {
		q := url.Values{"before": {items[len(items)-1].ID.String()}}
		if data.Query != "" {
			q.Set("q", data.Query)
		}
		if f.Status != "" {
			q.Set("status", f.Status)
		}
		data.Older = portalOrdersPath + "?" + q.Encode()
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "portal_orders.html", v)
}

// orderView is an order's page.
type orderView struct {
	ID, Reference, Company, Contact, Status, Created string
	Lines                                            []orderLineView
	Assets                                           []assetView
	TrackingURLs                                     []string
	// The changes the order's status allows now.
	CanAcknowledge, CanDecide, CanShip bool
	// Unshipped counts the units a shipment may still report.
	Unshipped int
	// Contracts links the order's contracts.
	Contracts []contractLink
}

// orderLineView is one line of an order.
type orderLineView struct {
	Quantity       int64
	Title, Payment string
}

// assetView is one unit of an order.
type assetView struct {
	Index                                int
	Title, Reference, Source, ProductRef string
	Status, SerialNumber                 string
	Shipped, RequiresSerialNumber        bool
}

// contractLink names a contract of an order.
type contractLink struct{ ID, Title, Status string }

// portalOrder shows an order of the seller with the changes it allows.
func (s *server) portalOrder(c *fiber.Ctx) error {
	return s.renderOrder(c, fiber.StatusOK, "", "")
}

// renderOrder writes an order's page with a status, a notice or a
// problem (a change refused).
func (s *server) renderOrder(c *fiber.Ctx, status int, notice, problem string) error {
	_, sellerID, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	id, err := recordid.Parse(c.Params("order"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	o, err := s.Service.Orders.Get(c.UserContext(), sellerID, id)
	if errors.Is(err, services.ErrOrderNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal_order.title")
	v.Notice, v.Problem = notice, problem
	if key, ok := orderNotices[c.Query("done")]; ok && notice == "" {
		v.Notice = v.T(key)
	}
	doc := o.Document
	st := orders.Status(o.Row.Status)
	data := orderView{
		ID: o.Row.ID.String(), Reference: o.Row.SellerOfferReference, Company: v.T("offer.unnamed"), Status: v.T("portal_order.status." + o.Row.Status),
		Created: formatTime(o.Row.CreatedAt), TrackingURLs: o.TrackingURLs,
		CanAcknowledge: st == orders.Created, CanDecide: st == orders.Created || st == orders.Acknowledged,
		CanShip: st == orders.Confirmed || st == orders.PartiallyFulfilled,
	}
	if co := doc.Customer.Company; co != nil && co.Name != nil {
		data.Company = *co.Name
	}
	if doc.Customer.FullName != nil {
		data.Contact = *doc.Customer.FullName
	}
	for _, l := range doc.Lines {
		payment := v.T("portal_order.pay_now")
		if l.ContractType == "rent" {
			payment = v.Tf("portal_order.rent", l.Duration, net(v, l.MonthlyPrice))
		}
		data.Lines = append(data.Lines, orderLineView{Quantity: l.Quantity, Title: l.Title, Payment: payment})
	}
	for i, a := range o.Assets {
		av := assetView{Index: i, Title: a.Title, Status: a.Status, Shipped: a.Status == orders.AssetShipped, RequiresSerialNumber: a.RequiresSerialNumber}
		if a.SerialNumber != nil {
			av.SerialNumber = *a.SerialNumber
		}
		if len(a.References) > 0 {
			av.Source, av.ProductRef = a.References[0].Source, a.References[0].Reference
			av.Reference = av.Source + " " + av.ProductRef
		}
		if !av.Shipped {
			data.Unshipped++
		}
		data.Assets = append(data.Assets, av)
	}
	links, err := s.orderContracts(c, v, sellerID, o.Row.ID)
	if err != nil {
		return s.failed(c, err)
	}
	data.Contracts = links
	v.Title = v.T("portal_order.title") + ": " + data.Company
	v.Data = data
	return s.pages.render(c, status, "portal_order.html", v)
}

// orderNotices are the notices an order's page shows after a change, by
// its done parameter.
var orderNotices = map[string]string{
	string(services.AcknowledgeOrder): "portal_order.done.acknowledge", string(services.ConfirmOrder): "portal_order.done.confirm",
	string(services.RejectOrder): "portal_order.done.reject", "ship": "portal_order.done.ship",
}

// changeOrder is the handler of an order's change.
func changeOrder(change services.PortalOrderChange) func(*server, *fiber.Ctx) error {
	return func(s *server, c *fiber.Ctx) error {
		return s.orderChanged(c, string(change), func(a orderAct) error {
			return s.Service.ChangePortalOrder(c.UserContext(), a.actor, a.id, change)
		})
	}
}

// orderAct is who changes which order.
type orderAct struct {
	actor console.Actor
	id    uuid.UUID
}

// shipOrder records a shipment of the units whose serial numbers the form
// gives (and of those without one that it ticks), with a tracking link.
func (s *server) shipOrder(c *fiber.Ctx) error {
	shipment := orders.Shipment{TrackingURL: strings.TrimSpace(c.FormValue("tracking_url"))}
	args := c.Request().PostArgs()
	for _, raw := range args.PeekMulti("unit") {
		i := string(raw)
		ref, err := url.ParseQuery(c.FormValue("unit_" + i))
		if err != nil {
			continue
		}
		serial := strings.TrimSpace(c.FormValue("serial_" + i))
		if serial == "" && c.FormValue("ship_"+i) == "" {
			continue
		}
		shipment.SerialNumbers = append(shipment.SerialNumbers, orders.SerialNumber{
			Source: ref.Get("source"), Reference: ref.Get("reference"), SerialNumber: serial,
		})
	}
	return s.orderChanged(c, "ship", func(a orderAct) error {
		return s.Service.ShipPortalOrder(c.UserContext(), a.actor, a.id, shipment)
	})
}

// orderChanged runs a change of the order the path names and shows the
// order after it: a notice when done, the refusal when its status (or
// the shipment) does not allow it.
func (s *server) orderChanged(c *fiber.Ctx, done string, change func(orderAct) error) error {
	u, _, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	id, err := recordid.Parse(c.Params("order"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	err = change(orderAct{actor: s.actor(c, u), id: id})
	v := s.view(c, "portal_order.title")
	var refused *refusal.Error
	var invalid *refusal.Invalid
	switch {
	case err == nil:
		return c.Redirect(Base+"/portal/orders/"+id.String()+"?done="+done, fiber.StatusSeeOther)
	case errors.Is(err, services.ErrOrderNotFound):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case errors.As(err, &refused):
		if refused.Kind == refusal.StatusNotAllowed {
			return s.renderOrder(c, fiber.StatusConflict, "", v.T("portal_order.refused_status"))
		}
		return s.renderOrder(c, fiber.StatusUnprocessableEntity, "", v.Tf("portal_order.refused", refused.Message))
	case errors.As(err, &invalid):
		return s.renderOrder(c, fiber.StatusUnprocessableEntity, "", v.Tf("portal_order.refused", invalid.Message))
	case errors.Is(err, services.ErrUnavailable):
		return s.renderOrder(c, fiber.StatusServiceUnavailable, "", v.T("portal_order.unavailable"))
	}
	return s.failed(c, err)
}
