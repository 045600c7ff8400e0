package api

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/recordid"
	checkoutpage "github.com/tenurehq/tenure/web/checkout"
)

// The hosted checkout's paths: the page is the path of an offer's
// checkout_redirect_url, its assets live under a versioned folder.
const (
	checkoutPagePath   = "/checkout/offers/:id"
	checkoutAssetsPath = "/checkout/assets"
)

// checkoutPage serves the hosted checkout: a shell that loads the page's
// modules, which then talk to the Customer-Facing API like any client.
// Nothing about the offer is rendered here, so the page and the API can
// never disagree about it.
type checkoutPage struct {
	assets *checkoutAssets
	shell  *template.Template
}

// shellView fills the shell template.
type shellView struct {
	Lang, Title, Loading, NoScript string
	// Base is the versioned folder of the assets.
	Base    string
	Modules []string
}

// mountCheckout serves the page and its assets, every response of both
// with the page's security headers.
func mountCheckout(app *fiber.App, cfg config.CheckoutConfig) error {
	assets, err := checkoutAssetsOnce()
	if err != nil {
		return err
	}
	shell, err := template.New("checkout").Parse(checkoutpage.Shell)
	if err != nil {
		return err
	}
	p := checkoutPage{assets: assets, shell: shell}
	group := app.Group("/checkout", checkoutHeaders(contentSecurityPolicy(cfg.FrameAncestors)))
	group.Get(strings.TrimPrefix(checkoutPagePath, "/checkout"), p.page)
	group.Get(strings.TrimPrefix(checkoutAssetsPath, "/checkout")+"/:version/*", p.assets.serve)
	return nil
}

// page answers the shell in the language the browser prefers; the page
// itself lets the customer switch. An id that cannot be an offer's still
// gets the shell (with 404), so the customer reads the page's own words
// about the link rather than a bare error.
func (p checkoutPage) page(c *fiber.Ctx) error {
	lang := string(pricing.ParseAcceptLanguage(c.Get(fiber.HeaderAcceptLanguage)))
	var out bytes.Buffer
	err := p.shell.Execute(&out, shellView{
		Lang:     lang,
		Title:    p.assets.message(lang, "page.title"),
		Loading:  p.assets.message(lang, "page.loading"),
		NoScript: p.assets.message(lang, "page.noscript"),
		Base:     checkoutAssetsPath + "/" + p.assets.version,
		Modules:  p.assets.modules,
	})
	if err != nil {
		return err
	}
	status := http.StatusOK
	if _, err := recordid.Parse(c.Params("id")); err != nil {
		status = http.StatusNotFound
	}
	// The address carries the offer's shared token: nothing may keep it.
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Status(status).Send(out.Bytes())
}

// checkoutHeaders sets the page's security headers: the policy, no
// referrer (the address carries the shared token, which must not reach
// the seller's logo host or a document's), and no content sniffing.
func checkoutHeaders(csp string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		c.Set("Content-Security-Policy", csp)
		c.Set("Referrer-Policy", "no-referrer")
		c.Set("X-Content-Type-Options", "nosniff")
		return c.Next()
	}
}

// contentSecurityPolicy allows the page's own scripts, styles and API
// calls only, seller logos from any https host, and framing by the
// configured origins alone (config.CheckoutConfig validates them as bare
// origins).
func contentSecurityPolicy(frameAncestors []string) string {
	ancestors := "'none'"
	if len(frameAncestors) > 0 {
		ancestors = strings.Join(frameAncestors, " ")
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self'",
		"img-src 'self' https: data:",
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors " + ancestors,
	}, "; ")
}
