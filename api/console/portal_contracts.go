package console

import (
	"errors"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// portalContractsPath is the list of the seller's contracts.
const portalContractsPath = Base + "/portal/contracts"

// portalContractRoutes are the seller's rental contracts, a contract's
// page with its installment schedule, and the end-of-term actions and
// returns the Seller API lets a seller take.
func portalContractRoutes() []route {
	act := func(action string) func(*server, *fiber.Ctx) error {
		return func(s *server, c *fiber.Ctx) error { return s.changeContract(c, action) }
	}
	return []route{
		{method: fiber.MethodGet, path: "/portal/contracts", access: byRole, sellers: portalSellers, nav: "nav.portal_contracts", handle: (*server).portalContracts},
		{method: fiber.MethodGet, path: "/portal/contracts/:contract", access: byRole, sellers: portalSellers, handle: (*server).portalContract},
		{method: fiber.MethodPost, path: "/portal/contracts/:contract/return", access: byRole, sellers: portalSellers, handle: act("return")},
		{method: fiber.MethodPost, path: "/portal/contracts/:contract/buy-out", access: byRole, sellers: portalSellers, handle: act("buy_out")},
		{method: fiber.MethodPost, path: "/portal/contracts/:contract/extend", access: byRole, sellers: portalSellers, handle: act("extend")},
		{method: fiber.MethodPost, path: "/portal/contracts/:contract/termination-quote", access: byRole, sellers: portalSellers, handle: act("quote_termination")},
		{method: fiber.MethodPost, path: "/portal/contracts/:contract/terminate", access: byRole, sellers: portalSellers, handle: act("terminate")},
	}
}

// contractRow is a contract as the list shows it.
type contractRow struct {
	ID, Product, Reference, Status, Monthly, Term, Ends string
}

// contractListView is the list's own data.
type contractListView struct {
	Contracts []contractRow
	// Older is the address of the next, older page; "" on the last.
	Older string
}

// portalContracts lists the seller's contracts, newest first, a page
// older than the contract the before cursor names (keyset on
// (created_at, id)).
func (s *server) portalContracts(c *fiber.Ctx) error {
	_, sellerID, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	beforeAt, beforeID, ok := parseCursor(c.Query("before"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	list, err := s.Service.Contracts.ListNewest(c.UserContext(), sellerID, beforeAt, beforeID, portalPageSize)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal_contract.list_title")
	data := contractListView{}
	for _, k := range list {
		data.Contracts = append(data.Contracts, contractRowOf(v, k))
	}
	if len(list) == portalPageSize {
		last := list[len(list)-1]
		data.Older = portalContractsPath + "?" + url.Values{"before": {cursor(last.CreatedAt, last.ID)}}.Encode()
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "portal_contracts.html", v)
}

// contractRowOf is a contract as the list and its page show it.
func contractRowOf(v view, k contracts.Stored) contractRow {
	row := contractRow{ID: k.ID.String(), Product: k.Product.Title, Reference: k.SellerOfferReference,
		Status: v.T("portal_contract.status." + string(k.Status)), Monthly: net(v, k.Rental.Monthly),
		Term: v.Tf("portal_offer.months", k.Rental.Months), Ends: v.T("offer.none")}
	if k.EndDate != nil {
		row.Ends = k.EndDate.String()
	}
	return row
}

// contractView is a contract's page.
type contractView struct {
	contractRow
	OrderID, Quantity, Start, Notice string
	Installments                     []installmentView
	Assets                           []contractAsset
	EndOfTerm                        *endOfTermView
	Quote                            *quoteView
	// Active says the contract runs: its end-of-term actions and returns
	// may be taken.
	Active bool
}

// installmentView is one installment of the schedule.
type installmentView struct {
	Number                      int
	Due, Period, Amount, Status string
}

// contractAsset is one rented unit.
type contractAsset struct {
	Title, SerialNumber, Status string
	Returnable                  bool
}

// endOfTermView is the options the notice offered, priced.
type endOfTermView struct {
	BuyOut, TermExtension, MonthlyExtension string
}

// quoteView is a termination quote to accept.
type quoteView struct {
	ID, Total, ValidUntil string
	Installments          int
}

// portalContract shows a contract of the seller.
func (s *server) portalContract(c *fiber.Ctx) error {
	return s.renderContract(c, fiber.StatusOK, "", "", nil)
}

// contractNotices are the notices a contract's page shows after an
// action, by its done parameter.
var contractNotices = map[string]string{
	"return": "portal_contract.done.return", "buy_out": "portal_contract.done.buy_out",
	"extend": "portal_contract.done.extend", "terminate": "portal_contract.done.terminate",
}

// renderContract writes a contract's page with a status, a notice, a
// problem (an action refused) or a termination quote to accept.
func (s *server) renderContract(c *fiber.Ctx, status int, notice, problem string, quote *contracts.StoredQuote) error {
	_, sellerID, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	id, err := recordid.Parse(c.Params("contract"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	k, err := s.Service.Contracts.Get(c.UserContext(), sellerID, id)
	if errors.Is(err, services.ErrContractNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal_contract.title")
	v.Notice, v.Problem = notice, problem
	if key, ok := contractNotices[c.Query("done")]; ok && notice == "" {
		v.Notice = v.T(key)
	}
	data := contractView{
		contractRow: contractRowOf(v, k),
		OrderID:     k.OrderID.String(), Start: v.T("offer.none"), Notice: v.T("offer.none"),
		Active: k.Status == contracts.Running || k.Status == contracts.Ending || k.Status == contracts.Monthly,
	}
	if k.NoticeDate != nil {
		data.Notice = k.NoticeDate.String()
	}
	if sc := k.Schedule; sc != nil {
		data.Start = sc.Term.Start.String()
		for _, in := range sc.Installments {
			data.Installments = append(data.Installments, installmentView{Number: in.Number, Due: in.DueDate.String(),
				Period: in.Period.From.String() + " – " + in.Period.To.String(), Amount: net(v, in.Amount), Status: v.T("portal_contract.installment." + string(in.Status))})
		}
	}
	for _, a := range k.Assets {
		ca := contractAsset{Title: a.Title, Status: a.Status, Returnable: a.Return == nil && a.SerialNumber != nil}
		if a.SerialNumber != nil {
			ca.SerialNumber = *a.SerialNumber
		}
		data.Assets = append(data.Assets, ca)
	}
	if e := k.EndOfTerm; e != nil {
		data.EndOfTerm = &endOfTermView{BuyOut: net(v, e.BuyOut),
			TermExtension:    v.Tf("portal_contract.extension_price", e.TermExtension.Months, net(v, e.TermExtension.Monthly)),
			MonthlyExtension: net(v, e.MonthlyExtension.Monthly)}
	}
	if quote != nil {
		data.Quote = &quoteView{ID: quote.ID.String(), Total: net(v, quote.Total), ValidUntil: quote.ValidUntil.String(), Installments: len(quote.Installments)}
	}
	v.Title = v.T("portal_contract.title") + ": " + data.Product
	v.Data = data
	return s.pages.render(c, status, "portal_contract.html", v)
}

// changeContract takes an action on the contract the path names through
// the contract service and shows the contract after it: a notice when
// done, the quote to accept after a quote, or the refusal.
func (s *server) changeContract(c *fiber.Ctx, action string) error {
	u, _, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	id, err := recordid.Parse(c.Params("contract"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	ch := services.PortalContractChange{Action: action}
	v := s.view(c, "portal_contract.title")
	switch action {
	case "return":
		ch.Return = contracts.Return{TrackingURL: strings.TrimSpace(c.FormValue("tracking_url"))}
		for _, sn := range c.Request().PostArgs().PeekMulti("serial") {
			ch.Return.SerialNumbers = append(ch.Return.SerialNumbers, string(sn))
		}
	case "extend":
		ch.Extend = contracts.ExtensionMode(c.FormValue("mode"))
		if ch.Extend != contracts.ExtendByTerm && ch.Extend != contracts.ExtendMonthly {
			return s.renderContract(c, fiber.StatusUnprocessableEntity, "", v.T("portal_contract.mode_required"), nil)
		}
	case "terminate":
		quote, err := recordid.Parse(c.FormValue("quote"))
		if err != nil {
			return s.renderContract(c, fiber.StatusUnprocessableEntity, "", v.T("portal_contract.quote_required"), nil)
		}
		ch.Quote = quote
	}
	quote, err := s.Service.ChangePortalContract(c.UserContext(), s.actor(c, u), id, ch)
	var refused *refusal.Error
	var invalid *refusal.Invalid
	switch {
	case err == nil && quote != nil:
		return s.renderContract(c, fiber.StatusOK, v.T("portal_contract.quoted"), "", quote)
	case err == nil:
		return c.Redirect(portalContractsPath+"/"+id.String()+"?done="+action, fiber.StatusSeeOther)
	case errors.Is(err, services.ErrContractNotFound):
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	case errors.As(err, &refused):
		if refused.Kind == refusal.StatusNotAllowed {
			return s.renderContract(c, fiber.StatusConflict, "", v.T("portal_contract.refused_status"), nil)
		}
		return s.renderContract(c, fiber.StatusUnprocessableEntity, "", v.Tf("portal_order.refused", refused.Message), nil)
	case errors.As(err, &invalid):
		return s.renderContract(c, fiber.StatusUnprocessableEntity, "", v.Tf("portal_order.refused", invalid.Message), nil)
	case errors.Is(err, services.ErrUnavailable):
		return s.renderContract(c, fiber.StatusServiceUnavailable, "", v.T("portal_order.unavailable"), nil)
	}
	return s.failed(c, err)
}

// orderContracts links the contracts of an order.
func (s *server) orderContracts(c *fiber.Ctx, v view, sellerID, orderID uuid.UUID) ([]contractLink, error) {
	list, _, err := s.Service.Contracts.List(c.UserContext(), sellerID, contracts.ListFilter{OrderID: &orderID, Limit: portalPageSize})
	if err != nil {
		return nil, err
	}
	out := make([]contractLink, len(list))
	for i, k := range list {
		out[i] = contractLink{ID: k.ID.String(), Title: k.Product.Title, Status: v.T("portal_contract.status." + string(k.Status))}
	}
	return out, nil
}
