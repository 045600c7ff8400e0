package console

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/services"
)

// portalSellers are the seller roles of the merchant portal's sales
// pages: admins and agents both sell.
var portalSellers = []console.Role{console.Admin, console.Agent}

// offerBuilderPath is the offer builder's page.
const offerBuilderPath = Base + "/portal/offers/new"

// portalOfferRoutes are the seller's offers, the offer builder, its
// catalog search and the page that hands an offer's checkout link over.
func portalOfferRoutes() []route {
	return []route{
		{method: fiber.MethodGet, path: "/portal/offers", access: byRole, sellers: portalSellers, nav: "nav.portal_offers", handle: (*server).portalOffers},
		{method: fiber.MethodGet, path: "/portal/offers/new", access: byRole, sellers: portalSellers, nav: "nav.portal_offer_new", handle: (*server).offerBuilder},
		{method: fiber.MethodPost, path: "/portal/offers/new", access: byRole, sellers: portalSellers, handle: (*server).offerBuilderPost},
		{method: fiber.MethodGet, path: "/portal/offers/catalog", access: byRole, sellers: portalSellers, handle: (*server).offerCatalog},
		{method: fiber.MethodGet, path: "/portal/offers/:offer", access: byRole, sellers: portalSellers, handle: (*server).portalOffer},
		{method: fiber.MethodGet, path: "/portal/offers/:offer/qr.png", access: byRole, sellers: portalSellers, handle: (*server).portalOfferQR},
	}
}

// bodyChecks are the checks of the Seller API's bodies the portal builds,
// by operation id, each read from the contract once, when first used.
var bodyChecks sync.Map

// checkSellerBody checks a payload the portal built as the Seller API's
// operation checks its body, and answers what the API would refuse. A
// form's blank field is a field not given: the contract's types carry it
// as "", which its schema would take for a value.
func checkSellerBody(operationID string, payload any) ([]string, error) {
	check, ok := bodyChecks.Load(operationID)
	if !ok {
		loaded, err := guard.SellerBodyCheck(operationID)
		if err != nil {
			return nil, err
		}
		check, _ = bodyChecks.LoadOrStore(operationID, loaded)
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	var body any
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, err
	}
	if raw, err = json.Marshal(withoutBlanks(body)); err != nil {
		return nil, err
	}
	return check.(*guard.BodyCheck).Check(raw), nil
}

// withoutBlanks is a JSON value without the empty strings of its objects.
func withoutBlanks(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, field := range v {
			if field == "" {
				delete(v, k)
				continue
			}
			v[k] = withoutBlanks(field)
		}
	case []any:
		for i, item := range v {
			v[i] = withoutBlanks(item)
		}
	}
	return v
}

// portalSeller is the seller of the request's seller user (the route
// table lets no other account through).
func portalSeller(c *fiber.Ctx) (console.User, uuid.UUID, error) {
	sess, _ := sessionOf(c)
	id, err := services.PortalSeller(sess.User)
	return sess.User, id, err
}

// offerBuilder shows an empty builder, or one searching the catalog for
// the q parameter.
func (s *server) offerBuilder(c *fiber.Ctx) error {
	u, _, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	profile, err := s.Service.SalesProfileOf(c.UserContext(), u)
	if err != nil {
		return s.failed(c, err)
	}
	f := newOfferForm(u, profile)
	f.Values["q"] = c.Query("q")
	return s.renderBuilder(c, fiber.StatusOK, f, fieldProblems{})
}

// offerBuilderPost takes the builder's form: a line added from the
// catalog or removed, a search, the prices brought up to date, or the
// offer created.
func (s *server) offerBuilderPost(c *fiber.Ctx) error {
	f := readOfferForm(c)
	if add := c.FormValue("add"); add != "" {
		f.addLine(add)
	}
	if i, err := strconv.Atoi(c.FormValue("remove")); err == nil && i >= 0 && i < len(f.Lines) {
		f.Lines = slices.Delete(f.Lines, i, i+1)
	}
	if c.FormValue("action") == "create" {
		return s.createOffer(c, f)
	}
	return s.renderBuilder(c, fiber.StatusOK, f, fieldProblems{})
}

// addLine adds the catalog product a result's button names, or one more
// of it when the basket has it.
func (f *offerForm) addLine(value string) {
	q, err := url.ParseQuery(value)
	if err != nil || q.Get("source") == "" || q.Get("reference") == "" {
		return
	}
	for i, l := range f.Lines {
		if l.Source == q.Get("source") && l.Reference == q.Get("reference") {
			if n, err := strconv.Atoi(l.Quantity); err == nil {
				f.Lines[i].Quantity = strconv.Itoa(n + 1)
			}
			return
		}
	}
	f.Lines = append(f.Lines, formLine{Source: q.Get("source"), Reference: q.Get("reference"), Title: q.Get("title"),
		Quantity: "1", Price: q.Get("price"), Currency: q.Get("currency")})
}

// createOffer creates the offer of the form through the offer service,
// after checking its payload as the Seller API does, and sends the agent
// to its checkout link; what is refused is shown beside its field.
func (s *server) createOffer(c *fiber.Ctx, f offerForm) error {
	u, _, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal_offer.title")
	payload, unread := f.payload(u, time.Now())
	problems := fieldProblems{}
	messages, err := checkSellerBody("createOffer", payload)
	if err != nil {
		return s.failed(c, err)
	}
	for _, message := range messages {
		problems.add(v, message)
	}
	// A field the form could not read went to the API as nothing or 0; the
	// form says what it could not read instead.
	for field, key := range unread {
		problems[field] = v.T(key)
	}
	if len(problems) > 0 {
		if err := s.Service.RefusePortalOffer(c.UserContext(), s.actor(c, u), f.Values["channel"], f.Values["reference"], problems.fields()); err != nil {
			return s.failed(c, err)
		}
		return s.renderBuilder(c, fiber.StatusUnprocessableEntity, f, problems)
	}
	created, err := s.Service.CreatePortalOffer(c.UserContext(), s.actor(c, u), seller.OfferRequest(payload))
	var refused *refusal.Error
	var invalid *refusal.Invalid
	switch {
	case err == nil:
		return c.Redirect(Base+"/portal/offers/"+created.Row.ID.String()+"?done=created", fiber.StatusSeeOther)
	case errors.As(err, &refused):
		problems.refused(v, refused, f)
	case errors.As(err, &invalid):
		problems.add(v, invalid.Message)
	case errors.Is(err, services.ErrUnavailable):
		problems.put("", v.T("portal_offer.unavailable"))
	default:
		return s.failed(c, err)
	}
	return s.renderBuilder(c, fiber.StatusUnprocessableEntity, f, problems)
}

// offerCatalog answers the builder's search as the agent types: the
// results alone, swapped into the page by htmx; a browser that opens the
// address goes to the builder searching for the same.
func (s *server) offerCatalog(c *fiber.Ctx) error {
	if c.Get("HX-Request") != "true" {
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Redirect(offerBuilderPath+"?"+url.Values{"q": {c.Query("q")}}.Encode(), fiber.StatusSeeOther)
	}
	_, sellerID, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal_offer.title")
	results, err := s.searchCatalog(c, v, sellerID, c.Query("q"))
	if err != nil {
		return s.failed(c, err)
	}
	v.Data = builderView{Search: results}
	return s.pages.renderPart(c, "portal_offer_new.html", "portal_catalog_results", v)
}

// catalogResults are a search of the seller's catalog as the builder
// lists it.
type catalogResults struct {
	Query    string
	Problem  string
	Products []catalogProduct
	// More says the search found more than it lists.
	More bool
}

// catalogProduct is a product found, with the value of its add button.
type catalogProduct struct {
	Title, Reference, Price, Add string
	Sellable                     bool
}

// catalogPageSize is how many products a search lists.
const catalogPageSize = 8

// searchCatalog searches the seller's active products for a term; a term
// the catalog cannot search for is answered on the page.
func (s *server) searchCatalog(c *fiber.Ctx, v view, sellerID uuid.UUID, q string) (catalogResults, error) {
	out := catalogResults{Query: q}
	if q == "" {
		return out, nil
	}
	page, err := s.Service.Catalog.Search(c.UserContext(), catalog.Query{SellerID: sellerID, Term: q, Limit: catalogPageSize})
	var bad *catalog.FilterError
	if errors.As(err, &bad) {
		out.Problem = v.T("portal_offer.search_refused")
		return out, nil
	}
	if err != nil {
		return out, err
	}
	out.More = page.Total > int64(len(page.Items))
	for _, it := range page.Items {
		p := catalogProduct{Title: it.Title, Price: v.Lang.Format(it.Currency, it.PriceNet), Sellable: catalog.Sellable(it.Product)}
		if len(it.References) > 0 {
			ref := it.References[0]
			p.Reference = ref.Source + " " + ref.Reference
			p.Add = url.Values{"source": {ref.Source}, "reference": {ref.Reference}, "title": {it.Title},
				"price": {amountText(v.Lang, it.PriceNet)}, "currency": {it.Currency}}.Encode()
		} else {
			p.Sellable = false
		}
		out.Products = append(out.Products, p)
	}
	return out, nil
}

// priceOffer prices the form's basket as the offer will be priced (the
// offer service's validation without the customer), for the agent to
// read the monthly prices out; what the basket's lines are refused for is
// filed beside them.
func (s *server) priceOffer(c *fiber.Ctx, v view, sellerID uuid.UUID, f offerForm, problems fieldProblems) (*offers.Pricing, error) {
	u, _ := sessionOf(c)
	payload, unread := f.payload(u.User, time.Now())
	if len(f.Lines) == 0 || len(unread) > 0 {
		return nil, nil
	}
	// The reference is checked when the offer is created; the prices do
	// not depend on it.
	payload.Customer, payload.SalesAgent = nil, nil
	payload.SellerOfferReference = "preview-" + uuid.NewString()
	if !slices.Contains(portalChannels, string(payload.SalesChannel)) {
		payload.SalesChannel = sellerapi.SalesChannel(portalChannels[0])
	}
	priced, err := s.Service.Offers.Validate(c.UserContext(), sellerID, seller.OfferRequest(payload))
	var refused *refusal.Error
	var invalid *refusal.Invalid
	switch {
	case err == nil:
		return &priced, nil
	case errors.As(err, &refused):
		problems.refused(v, refused, f)
		return nil, nil
	case errors.As(err, &invalid):
		problems.add(v, invalid.Message)
		return nil, nil
	}
	return nil, err
}
