package consolebench_test

import (
	"slices"
	"testing"

	consoleapi "github.com/tenurehq/tenure/api/console"
)

// page is a list page as the benchmark requests it.
type page struct {
	// name names the page's metrics.
	name string
	// route is the page's path in the console's route table.
	route string
	// portal pages are requested as the big seller's admin, the others
	// as an operator admin.
	portal bool
	// address is the page's path and query under /console; {deep},
	// {offer} and {endpoint} stand for ids read after the fill (see
	// addresses).
	address string
}

// pages are the console's list pages the benchmark measures, each list
// route at least once; TestEveryListPageIsMeasured holds them to the
// route table.
var pages = []page{
	// The operators' back office.
	{"review_first", "/review", false, "/review"},
	{"review_deep", "/review", false, "/review?after={deep}"},
	{"search_company", "/search", false, "/search?q=company+2601+gmbh"},
	{"search_reference", "/search", false, "/search?q=bench-9001"},
	{"collections_due", "/collections", false, "/collections"},
	{"collections_failed", "/collections/failed", false, "/collections/failed"},
	{"collections_dunning", "/collections/arrears", false, "/collections/arrears"},
	{"collection_files", "/collections/files", false, "/collections/files"},
	{"payouts", "/payouts", false, "/payouts"},
	{"webhooks_health", "/webhooks/health", false, "/webhooks/health"},
	{"webhooks_health_7d", "/webhooks/health", false, "/webhooks/health?window=7d"},
	{"endpoint_deliveries", "/webhooks/health/:endpoint", false, "/webhooks/health/{endpoint}"},
	{"audit_first", "/audit", false, "/audit"},
	{"audit_filtered", "/audit", false, "/audit?action=offer.accept"},
	{"sellers_first", "/sellers", false, "/sellers"},
	{"offer_page", "/offers/:offer", false, "/offers/{offer}"},
	// The merchant portal, as the big seller's admin.
	{"portal_offers", "/portal/offers", true, "/portal/offers"},
	{"portal_offers_search", "/portal/offers", true, "/portal/offers?q=company+2601+gmbh"},
	{"portal_offers_mine", "/portal/offers", true, "/portal/offers?mine=1"},
	{"portal_orders", "/portal/orders", true, "/portal/orders"},
	{"portal_orders_status", "/portal/orders", true, "/portal/orders?status=confirmed"},
	{"portal_orders_search", "/portal/orders", true, "/portal/orders?q=company+2601+gmbh"},
	{"portal_contracts", "/portal/contracts", true, "/portal/contracts"},
	{"portal_events", "/webhooks", true, "/webhooks"},
	{"portal_endpoints", "/webhooks/endpoints", true, "/webhooks/endpoints"},
	{"catalog_imports", "/catalog/imports", true, "/catalog/imports"},
	{"portal_users", "/portal/users", true, "/portal/users"},
	{"portal_credentials", "/portal/credentials", true, "/portal/credentials"},
}

// notLists are the route table's GET routes that list no records, with
// why they are not measured.
var notLists = map[string]string{
	"/":                                   "redirects to the account's first page",
	"/sign-in":                            "a form",
	"/language/:lang":                     "sets the language and redirects",
	"/invitation/:invitation":             "one invitation's form",
	"/invitation/:invitation/qr.png":      "an image of one invitation's link",
	"/account":                            "the signed-in account's own page (its passkeys, a handful)",
	"/orders/:order":                      "one record's page",
	"/contracts/:contract":                "one record's page",
	"/invoices/:invoice/pdf":              "one invoice's document",
	"/collections/files/:file":            "one file's download",
	"/collections/returns":                "a form to upload a bank return file",
	"/payouts/:payout/file":               "one payout file's download",
	"/sellers/:seller":                    "one seller's page",
	"/portal":                             "the portal's greeting with the screens the role opens",
	"/portal/offers/new":                  "the offer builder's form",
	"/portal/offers/catalog":              "the builder's product search in the seller's catalog, which offers do not grow (make bench-catalog)",
	"/portal/offers/:offer":               "one record's page",
	"/portal/offers/:offer/qr.png":        "an image of one offer's checkout link",
	"/portal/orders/:order":               "one record's page",
	"/portal/contracts/:contract":         "one record's page",
	"/portal/profile":                     "the seller's profile form",
	"/catalog/imports/:import":            "one upload's page",
	"/catalog/imports/:import/progress":   "one upload's progress",
	"/catalog/imports/:import/errors.csv": "one upload's error file",
	"/webhooks/events/:event":             "one event's page with its attempts",
}

// TestEveryListPageIsMeasured holds the benchmark's pages to the route
// table: every GET route is measured or named as no list, and no name
// is left of a route that is gone.
func TestEveryListPageIsMeasured(t *testing.T) {
	table := consoleapi.PagePaths()
	for _, path := range table {
		_, named := notLists[path]
		measured := slices.ContainsFunc(pages, func(p page) bool { return p.route == path })
		if !named && !measured {
			t.Errorf("GET %s is neither measured (pages) nor named as no list (notLists)", path)
		}
		if named && measured {
			t.Errorf("GET %s is both measured and named as no list", path)
		}
	}
	for path := range notLists {
		if !slices.Contains(table, path) {
			t.Errorf("notLists names GET %s, which the route table does not have", path)
		}
	}
	for _, p := range pages {
		if !slices.Contains(table, p.route) {
			t.Errorf("page %s measures route %s, which the route table does not have", p.name, p.route)
		}
	}
}
