package console

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// recordRoutes are the search and the pages of orders and contracts with
// their timelines, open to every operator: reviewers read a customer's
// orders and contracts too.
func recordRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/search", access: byRole, operators: console.OperatorRoles, nav: "nav.search", handle: (*server).search},
		{method: fiber.MethodGet, path: "/orders/:order", access: byRole, operators: console.OperatorRoles, handle: (*server).order},
		{method: fiber.MethodGet, path: "/contracts/:contract", access: byRole, operators: console.OperatorRoles, handle: (*server).contract},
		{method: fiber.MethodGet, path: "/invoices/:invoice/pdf", access: byRole, operators: console.OperatorRoles, handle: (*server).invoicePDF},
	}
}

// orderPath is an order's page.
func orderPath(id uuid.UUID) string { return Base + "/orders/" + id.String() }

// recordPaths are the pages of the kinds of records a search finds.
var recordPaths = map[string]func(uuid.UUID) string{
	"offer":    func(id uuid.UUID) string { return Base + "/offers/" + id.String() },
	"order":    orderPath,
	"contract": contractPath,
}

// searchView is the search page's own data.
type searchView struct {
	Query   string
	Results []moneyRow
	// Full says the search shows its most, and a longer text may find
	// fewer.
	Full bool
}

// search finds a record by its id (to its page), or the orders whose
// reference, company, customer or agent hold the text.
func (s *server) search(c *fiber.Ctx) error {
	v := s.view(c, "records.search")
	query := strings.TrimSpace(c.Query("q"))
	data := searchView{Query: query}
	v.Data = data
	if query == "" {
		return s.pages.render(c, fiber.StatusOK, "records_search.html", v)
	}
	if id, err := recordid.Parse(query); err == nil {
		found, err := s.Service.FindRecord(c.UserContext(), id)
		if errors.Is(err, services.ErrNothingFound) {
			v.Problem = v.T("records.no_record")
			return s.pages.render(c, fiber.StatusNotFound, "records_search.html", v)
		}
		if err != nil {
			return s.failed(c, err)
		}
		return c.Redirect(recordPaths[found.Kind](found.Page), fiber.StatusSeeOther)
	}
	rows, err := s.Service.SearchOrders(c.UserContext(), query)
	if errors.Is(err, services.ErrSearchTooShort) {
		v.Problem = v.Tf("records.too_short", services.MinSearchLength)
		return s.pages.render(c, fiber.StatusUnprocessableEntity, "records_search.html", v)
	}
	if err != nil {
		return s.failed(c, err)
	}
	for _, r := range rows {
		company := r.CompanyName
		if company == "" {
			company = r.FullName
		}
		data.Results = append(data.Results, moneyRow{
			ID: r.ID.String(), Path: orderPath(r.ID), Reference: r.SellerOfferReference, Seller: r.SellerName, Status: r.Status,
			Detail: company, At: formatTime(r.CreatedAt), AtISO: isoTime(r.CreatedAt),
		})
	}
	data.Full = len(rows) == services.SearchPageSize
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "records_search.html", v)
}

// recordView is an order's or a contract's page.
type recordView struct {
	ID, Status, Seller, Reference, Company string
	// OfferPath, OrderPath lead to the records it came from.
	OfferPath, OrderPath string
	Facts                []fact
	Lines                []lineView
	Contracts            []moneyRow
	Installments         []moneyRow
	Collections          []moneyRow
	Invoices             []moneyRow
	Timeline             []timelineLine
}

// fact is one labelled value of a record.
type fact struct{ Label, Value string }

// timelineLine is one line of a timeline as the page shows it.
type timelineLine struct {
	At, AtISO, Kind, KindCode, What, Detail string
	// Path is the page of the record the line is about, when it is another.
	Path   string
	Failed bool
}

// timelineOf is a timeline for the page; lines about another record than
// own name it.
func timelineOf(v view, own uuid.UUID, entries []services.TimelineEntry, paths map[uuid.UUID]string) []timelineLine {
	out := make([]timelineLine, 0, len(entries))
	for _, e := range entries {
		line := timelineLine{At: formatTime(e.At), AtISO: isoTime(e.At), Kind: v.T("records.kind." + string(e.Kind)), KindCode: string(e.Kind),
			What: e.What, Detail: e.Detail, Failed: e.Failed}
		switch e.Kind {
		case services.TimelineAction:
			line.What = v.T("action." + e.What)
		case services.TimelineStatus:
			line.What = v.T("records.what." + e.What)
		}
		if e.Record != uuid.Nil && e.Record != own {
			line.Path = paths[e.Record]
		}
		out = append(out, line)
	}
	return out
}

// invoiceRows are invoices with their PDFs, and their pages for the
// timeline's lines about them.
func invoiceRows(v view, invoices []invoicing.Record, paths map[uuid.UUID]string) []moneyRow {
	var out []moneyRow
	for _, inv := range invoices {
		pdf := Base + "/invoices/" + inv.ID.String() + "/pdf"
		paths[inv.ID] = pdf
		out = append(out, moneyRow{
			ID: inv.ID.String(), Reference: inv.Number, Amount: v.Lang.Format(inv.Currency, inv.Gross), Status: string(inv.Kind),
			Date: inv.IssueDate.String(), Detail: inv.ServicePeriod.From.String() + " – " + inv.ServicePeriod.To.String(), Download: pdf,
		})
	}
	return out
}

// order shows an order: its status, lines, contracts, invoices and
// timeline, with links to its offer and contracts.
func (s *server) order(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("order"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	r, err := s.Service.Order(c.UserContext(), id)
	if errors.Is(err, services.ErrOrderNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "records.order")
	o := r.Order
	d := recordView{
		ID: id.String(), Status: o.Row.Status, Seller: r.SellerName, Reference: o.Row.SellerOfferReference, Company: o.Row.CompanyName,
		OfferPath: recordPaths["offer"](o.Row.OfferID),
		Facts: []fact{
			{v.T("records.created"), formatTime(o.Row.CreatedAt)},
			{v.T("records.customer"), firstOf(strings.TrimSpace(o.Row.FullName), v.T("offer.none"))},
		},
	}
	for _, l := range o.Document.Lines {
		price := v.Tf("records.monthly", v.Lang.Format(l.MonthlyPrice.Currency, l.MonthlyPrice.Gross), l.Duration)
		if l.ContractType != "rent" && l.UnitPrice != nil {
			price = v.Tf("offer.each", v.Lang.Format(l.UnitPrice.Currency, l.UnitPrice.Net))
		}
		d.Lines = append(d.Lines, lineView{Quantity: l.Quantity, Title: l.Title, Price: price})
	}
	paths := map[uuid.UUID]string{}
	for _, k := range r.Contracts {
		paths[k.ID] = contractPath(k.ID)
		d.Contracts = append(d.Contracts, moneyRow{
			ID: k.ID.String(), Path: contractPath(k.ID), Reference: k.Product.Title, Status: string(k.Status),
			Amount: v.Tf("records.monthly", v.Lang.Format(k.Rental.Monthly.Currency, k.Rental.Monthly.Gross), k.Rental.Months),
		})
	}
	d.Invoices = invoiceRows(v, r.Invoices, paths)
	d.Timeline = timelineOf(v, id, r.Timeline, paths)
	v.Title = v.T("records.order") + ": " + firstOf(d.Company, d.Reference)
	v.Data = d
	return s.pages.render(c, fiber.StatusOK, "records_order.html", v)
}

// contract shows a contract: its status, rental, installments,
// collections, invoices and timeline, with links to its order and offer.
func (s *server) contract(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("contract"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	r, err := s.Service.Contract(c.UserContext(), id)
	if errors.Is(err, services.ErrContractNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "records.contract")
	k := r.Contract
	d := recordView{
		ID: id.String(), Status: string(k.Status), Seller: r.SellerName, Reference: k.SellerOfferReference, Company: r.Company,
		OfferPath: recordPaths["offer"](k.OfferID), OrderPath: orderPath(k.OrderID),
		Facts: []fact{
			{v.T("records.product"), fmt.Sprintf("%d × %s", k.Product.Quantity, k.Product.Title)},
			{v.T("records.rental"), v.Tf("records.monthly", v.Lang.Format(k.Rental.Monthly.Currency, k.Rental.Monthly.Gross), k.Rental.Months)},
			{v.T("records.created"), formatTime(k.CreatedAt)},
		},
	}
	if k.EndDate != nil {
		d.Facts = append(d.Facts, fact{v.T("records.end_date"), k.EndDate.String()})
	}
	for _, i := range r.Installments {
		d.Installments = append(d.Installments, moneyRow{
			ID: fmt.Sprint(i.Number), Reference: fmt.Sprintf("#%d", i.Number), Date: date(i.DueDate), Amount: v.Lang.Format(i.Currency, i.Gross),
			Status: v.T("money.installment." + i.Status), Failed: i.Status == "failed",
		})
	}
	for _, ci := range r.Collections {
		row := moneyRow{
			ID: ci.EndToEndID, Reference: ci.EndToEndID, Amount: v.Lang.Format(k.Rental.Monthly.Currency, ci.Amount),
			Status: v.T("money.item." + ci.Status), At: formatTime(ci.CreatedAt), AtISO: isoTime(ci.CreatedAt),
			Detail: v.Tf("money.item_detail", ci.SequenceType, ci.Attempt, reasonOf(ci.Reason)), Failed: ci.Status == "returned",
		}
		if ci.FileID != nil {
			row.Download = collectionsPath + "/files/" + ci.FileID.String()
		}
		d.Collections = append(d.Collections, row)
	}
	paths := map[uuid.UUID]string{}
	d.Invoices = invoiceRows(v, r.Invoices, paths)
	d.Timeline = timelineOf(v, id, r.Timeline, paths)
	v.Title = v.T("records.contract") + ": " + firstOf(d.Company, d.Reference)
	v.Data = d
	return s.pages.render(c, fiber.StatusOK, "records_contract.html", v)
}

// firstOf is the first of the texts that is not empty.
func firstOf(texts ...string) string {
	for _, t := range texts {
		if t != "" {
			return t
		}
	}
	return ""
}

// invoicePDF downloads an invoice's PDF as issued.
func (s *server) invoicePDF(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("invoice"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	pdf, err := s.Service.InvoicePDF(c.UserContext(), id)
	if errors.Is(err, services.ErrInvoiceNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="`+id.String()+`.pdf"`)
	return c.Send(pdf)
}
