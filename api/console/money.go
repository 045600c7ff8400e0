package console

import (
	"errors"
	"fmt"
	"mime/multipart"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// moneyRoles may open the collections and payouts: the operators who work
// on money, and admins.
var moneyRoles = []console.Role{console.Finance, console.Admin}

// collectionsPath is the collections' first page.
const collectionsPath = Base + "/collections"

// moneyRoutes are the collections (installments due, failed, contracts in
// arrears, files, bank returns) and the payouts.
func moneyRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/collections", access: byRole, operators: moneyRoles, nav: "nav.collections", handle: (*server).installmentsDue},
		{method: fiber.MethodGet, path: "/collections/failed", access: byRole, operators: moneyRoles, handle: (*server).failedInstallments},
		{method: fiber.MethodGet, path: "/collections/arrears", access: byRole, operators: moneyRoles, handle: (*server).contractsInArrears},
		{method: fiber.MethodGet, path: "/collections/files", access: byRole, operators: moneyRoles, handle: (*server).collectionFiles},
		{method: fiber.MethodGet, path: "/collections/files/:file", access: byRole, operators: moneyRoles, handle: (*server).collectionFile},
		{method: fiber.MethodGet, path: "/collections/returns", access: byRole, operators: moneyRoles, handle: (*server).returnsForm},
		{method: fiber.MethodPost, path: "/collections/returns", access: byRole, operators: moneyRoles, handle: (*server).importReturns},
		{method: fiber.MethodGet, path: "/payouts", access: byRole, operators: moneyRoles, nav: "nav.payouts", handle: (*server).payouts},
		{method: fiber.MethodGet, path: "/payouts/:payout/file", access: byRole, operators: moneyRoles, handle: (*server).payoutFile},
	}
}

// collectionsView is the data of a collections page: its tabs, its view
// and rows, and the next page's address.
type collectionsView struct {
	Tabs []navLink
	// View is the tab shown: due, failed, arrears, files or returns.
	View string
	Rows []moneyRow
	Next string
	// Imported is a bank return file's result, after an import.
	Imported *importedView
}

// moneyRow is one row of a money list, every list's fields in one shape:
// the templates show those their view has.
type moneyRow struct {
	ID, Path, Reference, Seller, Amount, Status string
	Date, At, AtISO, Detail                     string
	// Download is the address of the row's file, when it has one.
	Download string
	Failed   bool
}

// importedView is what an imported file changed.
type importedView struct {
	Name                               string
	Paid, Returned, Unchanged, Unknown int
}

// collectionTabs are the collections' pages, in the tabs' order.
var collectionTabs = []struct{ view, path, label string }{
	{"due", collectionsPath, "money.tab.due"},
	{"failed", collectionsPath + "/failed", "money.tab.failed"},
	{"arrears", collectionsPath + "/arrears", "money.tab.arrears"},
	{"files", collectionsPath + "/files", "money.tab.files"},
	{"returns", collectionsPath + "/returns", "money.tab.returns"},
}

// collectionsPage is the frame of a collections page of a view.
func (s *server) collectionsPage(c *fiber.Ctx, view string) (view, collectionsView) {
	v := s.view(c, "money.title."+view)
	data := collectionsView{View: view}
	for _, t := range collectionTabs {
		data.Tabs = append(data.Tabs, navLink{Label: t.label, Path: t.path, Current: t.view == view})
	}
	return v, data
}

// contractPath is a contract's page.
func contractPath(id uuid.UUID) string { return Base + "/contracts/" + id.String() }

// date writes a day.
func date(t time.Time) string { return civil.DateOf(t).String() }

// installmentsDue lists every seller's installments due or to come, by
// due date.
func (s *server) installmentsDue(c *fiber.Ctx) error {
	after, ok := parseInstallmentCursor(c.Query("after"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	rows, err := s.Service.InstallmentsDue(c.UserContext(), after)
	if err != nil {
		return s.failed(c, err)
	}
	v, data := s.collectionsPage(c, "due")
	for _, r := range rows {
		status := v.T("money.installment." + r.Status)
		if r.InCollection {
			status = v.T("money.in_collection")
		}
		data.Rows = append(data.Rows, moneyRow{
			ID: fmt.Sprintf("%s-%d", r.ContractID, r.Number), Path: contractPath(r.ContractID), Reference: r.SellerOfferReference,
			Seller: r.SellerName, Amount: v.Lang.Format(r.Currency, r.Gross), Status: status, Date: date(r.DueDate),
			Detail: v.Tf("money.installment_number", r.Number),
		})
	}
	if len(rows) == services.MoneyPageSize {
		last := rows[len(rows)-1]
		data.Next = collectionsPath + "?after=" + installmentCursor(last.DueDate, last.ContractID, last.Number)
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "money_collections.html", v)
}

// failedInstallments lists every seller's failed installments, in the
// order they failed, with the bank's reason.
func (s *server) failedInstallments(c *fiber.Ctx) error {
	after, ok := parseInstallmentCursor(c.Query("after"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	rows, err := s.Service.FailedInstallments(c.UserContext(), after)
	if err != nil {
		return s.failed(c, err)
	}
	v, data := s.collectionsPage(c, "failed")
	for _, r := range rows {
		data.Rows = append(data.Rows, moneyRow{
			ID: fmt.Sprintf("%s-%d", r.ContractID, r.Number), Path: contractPath(r.ContractID), Reference: r.SellerOfferReference,
			Seller: r.SellerName, Amount: v.Lang.Format(r.Currency, r.Gross), Status: r.ContractStatus, Date: date(r.DueDate),
			At: formatTime(r.StatusChangedAt), AtISO: isoTime(r.StatusChangedAt), Failed: true,
			Detail: v.Tf("money.failed_detail", r.Number, reasonOf(r.Reason), r.Attempts),
		})
	}
	if len(rows) == services.MoneyPageSize {
		last := rows[len(rows)-1]
		data.Next = collectionsPath + "/failed?after=" + installmentCursor(last.StatusChangedAt, last.ContractID, last.Number)
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "money_collections.html", v)
}

// reasonOf is a return reason, or a dash when the bank gave none.
func reasonOf(reason string) string {
	if reason == "" {
		return "–"
	}
	return reason
}

// contractsInArrears lists the contracts owing failed installments,
// longest in arrears first, with their reminder stage.
func (s *server) contractsInArrears(c *fiber.Ctx) error {
	afterAt, afterID, ok := parseCursor(c.Query("after"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	rows, err := s.Service.ContractsInArrears(c.UserContext(), afterAt, afterID)
	if err != nil {
		return s.failed(c, err)
	}
	v, data := s.collectionsPage(c, "arrears")
	for _, r := range rows {
		data.Rows = append(data.Rows, moneyRow{
			ID: r.ContractID.String(), Path: contractPath(r.ContractID), Reference: r.SellerOfferReference, Seller: r.SellerName,
			Amount: v.Lang.Format(r.Currency, r.Overdue), Status: r.Status, At: formatTime(r.Since), AtISO: isoTime(r.Since),
			Detail: v.Tf("money.arrears_detail", r.Failed, r.Stage), Failed: true,
		})
	}
	if len(rows) == services.MoneyPageSize {
		last := rows[len(rows)-1]
		data.Next = collectionsPath + "/arrears?after=" + url.QueryEscape(cursor(last.Since, last.ContractID))
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "money_collections.html", v)
}

// collectionFiles lists the collection runs' pain.008 files, newest
// first, each with its download.
func (s *server) collectionFiles(c *fiber.Ctx) error {
	beforeAt, beforeID, ok := parseCursor(c.Query("before"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	rows, err := s.Service.CollectionFiles(c.UserContext(), beforeAt, beforeID)
	if err != nil {
		return s.failed(c, err)
	}
	v, data := s.collectionsPage(c, "files")
	for _, f := range rows {
		data.Rows = append(data.Rows, moneyRow{
			ID: f.ID.String(), Reference: f.MessageID, Seller: f.ContractualEntity, Amount: v.Lang.Format("EUR", f.CtrlSum),
			Status: f.Scheme + " " + strings.Join(f.SequenceTypes, "/"), Date: date(f.CollectionDate),
			At: formatTime(f.CreatedAt), AtISO: isoTime(f.CreatedAt),
			Detail: v.Tf("money.file_detail", date(f.RunDate), f.NbOfTxs), Download: collectionsPath + "/files/" + f.ID.String(),
		})
	}
	if len(rows) == services.MoneyPageSize {
		last := rows[len(rows)-1]
		data.Next = collectionsPath + "/files?before=" + url.QueryEscape(cursor(last.CreatedAt, last.ID))
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "money_collections.html", v)
}

// collectionFile downloads a stored pain.008 file.
func (s *server) collectionFile(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("file"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	f, r, err := s.Service.Collections.OpenFile(c.UserContext(), id)
	if errors.Is(err, services.ErrCollectionFileNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	attachment(c, f.MessageID+".xml")
	return c.SendStream(r, int(f.Size))
}

// attachment makes the answer a download of an XML file of a name.
func attachment(c *fiber.Ctx, name string) {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, "application/xml")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
}

// returnsForm shows the form that imports a bank return file.
func (s *server) returnsForm(c *fiber.Ctx) error {
	v, data := s.collectionsPage(c, "returns")
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "money_collections.html", v)
}

// importReturns imports an uploaded camt.054 notification as `tenure
// collections returns import` does, and shows what it changed; a file
// missing or unreadable is refused, naming why, and changes nothing.
func (s *server) importReturns(c *fiber.Ctx) error {
	v, data := s.collectionsPage(c, "returns")
	header, err := c.FormFile("file")
	if err != nil {
		v.Problem, v.Data = v.T("money.import_no_file"), data
		return s.pages.render(c, fiber.StatusUnprocessableEntity, "money_collections.html", v)
	}
	file, err := header.Open()
	if err != nil {
		return s.failed(c, err)
	}
	defer file.Close()
	sess, _ := sessionOf(c)
	got, err := s.Service.ImportReturns(c.UserContext(), s.actor(c, sess.User), header.Filename, file)
	data.Imported = imported(header, got)
	v.Data = data
	var unreadable *services.NotificationError
	switch {
	case err == nil:
		v.Notice = v.T("money.imported")
		return s.pages.render(c, fiber.StatusOK, "money_collections.html", v)
	case errors.As(err, &unreadable):
		data.Imported = nil
		v.Data, v.Problem = data, v.Tf("money.import_unreadable", unreadable.Error())
		return s.pages.render(c, fiber.StatusUnprocessableEntity, "money_collections.html", v)
	}
	s.Logger.ErrorContext(c.UserContext(), "console import of a bank return file failed", "error", err)
	v.Problem = v.T("money.import_failed")
	return s.pages.render(c, fiber.StatusInternalServerError, "money_collections.html", v)
}

// imported is an import's result for the page.
func imported(header *multipart.FileHeader, got collections.Imported) *importedView {
	return &importedView{Name: header.Filename, Paid: got.Paid, Returned: got.Returned, Unchanged: got.Unchanged, Unknown: got.Unknown}
}

// payoutsView is the payouts page's own data.
type payoutsView struct {
	Rows []moneyRow
	Next string
}

// payouts lists every seller's payouts, newest first, with the pain.001
// file of those paid.
func (s *server) payouts(c *fiber.Ctx) error {
	beforeAt, beforeID, ok := parseCursor(c.Query("before"))
	if !ok {
		return s.problem(c, fiber.StatusBadRequest, "problem.not_found")
	}
	rows, err := s.Service.Payouts(c.UserContext(), beforeAt, beforeID)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "money.payouts")
	var data payoutsView
	for _, p := range rows {
		row := moneyRow{
			ID: p.ID.String(), Path: orderPath(p.OrderID), Reference: p.OrderID.String(), Seller: p.SellerName,
			Amount: v.Lang.Format(p.Currency, p.Amount), Status: v.T("money.payout." + p.Status), At: formatTime(p.CreatedAt), AtISO: isoTime(p.CreatedAt),
			Detail: v.Tf("money.payout_detail", v.Lang.Format(p.Currency, p.Financed), v.Lang.Format(p.Currency, p.Fee), p.ContractualEntity),
		}
		if p.FileID != nil {
			row.Download, row.Date = Base+"/payouts/"+p.ID.String()+"/file", p.MessageID
			if p.ExecutionDate != nil {
				row.Date = p.MessageID + " · " + date(*p.ExecutionDate)
			}
		}
		data.Rows = append(data.Rows, row)
	}
	if len(rows) == services.MoneyPageSize {
		last := rows[len(rows)-1]
		data.Next = Base + "/payouts?before=" + url.QueryEscape(cursor(last.CreatedAt, last.ID))
	}
	v.Data = data
	return s.pages.render(c, fiber.StatusOK, "money_payouts.html", v)
}

// payoutFile downloads the pain.001 file that paid a payout.
func (s *server) payoutFile(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("payout"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	f, err := s.Service.PayoutFile(c.UserContext(), id)
	if errors.Is(err, services.ErrPayoutNotFound) || errors.Is(err, services.ErrNoPayoutFile) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	attachment(c, f.MessageID+".xml")
	return c.Send(f.Content)
}

// installmentCursor names an installment for the next page: the moment
// it is listed by, its contract and its number.
func installmentCursor(at time.Time, contract uuid.UUID, number int32) string {
	return url.QueryEscape(cursor(at, contract) + "_" + strconv.Itoa(int(number)))
}

// parseInstallmentCursor reads an installment's cursor; "" is the first
// page.
func parseInstallmentCursor(s string) (services.InstallmentCursor, bool) {
	if s == "" {
		return services.InstallmentCursor{}, true
	}
	rest, n, ok := cutLast(s, "_")
	number, err := strconv.ParseInt(n, 10, 32)
	at, id, cursorOK := parseCursor(rest)
	return services.InstallmentCursor{At: at, Contract: id, Number: int32(number)}, ok && err == nil && cursorOK && rest != ""
}

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
