package api

import (
	"bytes"
	"html/template"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/web/docs"
)

// sellerContract serves the Seller API contract this server implements.
func sellerContract(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "application/yaml")
	return c.Send(openapi.Seller)
}

// customerContract serves the Customer-Facing API contract this server
// implements.
func customerContract(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "application/yaml")
	return c.Send(openapi.Customer)
}

// The API reference's paths: /docs opens the first reference, each API
// has a page of its own, and the assets live under a versioned folder.
const (
	docsPath       = "/docs"
	docsAssetsPath = docsPath + "/assets"
)

// apiReference is one API the reference renders.
type apiReference struct {
	// Name is the last segment of the page's path.
	Name, Title, Contract string
}

// apiReferences are the APIs /docs renders, the first one at /docs itself.
var apiReferences = []apiReference{
	{Name: "seller", Title: "Seller API", Contract: "/openapi/seller.yaml"},
	{Name: "customer", Title: "Customer-Facing API", Contract: "/openapi/customer.yaml"},
}

// docsMediaTypes are the kinds of file the reference is made of; the
// renderer's licences (LICENSE, NOTICE) have no extension.
var docsMediaTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".txt": "text/plain; charset=utf-8",
	"":     "text/plain; charset=utf-8",
}

// docsFiles are loaded and compressed once per process rather than per
// server: the renderer is 1.7 MB, and the tests build many servers.
var docsFiles = sync.OnceValues(func() (staticFiles, error) {
	return loadStaticFiles(docs.Assets(), docsMediaTypes)
})

// docsPolicy is the reference's Content-Security-Policy: its own scripts,
// styles and contract only (the renderer's icons are data: URLs), no
// framing. "Try it out" calls the API on the same origin.
const docsPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// docsPage serves the reference: one page per API, each naming the
// contract Swagger UI renders and linking the others.
type docsPage struct {
	files    staticFiles
	template *template.Template
}

// docsView fills the page template.
type docsView struct {
	Title, Contract string
	// Base is the versioned folder of the assets.
	Base string
	APIs []docsLink
}

// docsLink is one API in the page's header.
type docsLink struct {
	Title, Path string
	Current     bool
}

// mountDocs serves the reference and its assets, every response with the
// reference's security headers.
func mountDocs(app *fiber.App) error {
	files, err := docsFiles()
	if err != nil {
		return err
	}
	tmpl, err := template.New("docs").Parse(docs.Page)
	if err != nil {
		return err
	}
	p := docsPage{files: files, template: tmpl}
	group := app.Group(docsPath, checkoutHeaders(docsPolicy))
	group.Get("/", p.first)
	group.Get("/:api", p.page)
	group.Get(strings.TrimPrefix(docsAssetsPath, docsPath)+"/:version/*", files.serve)
	return nil
}

// first sends /docs to the first API's page, so every reference has one
// address.
func (p docsPage) first(c *fiber.Ctx) error {
	return c.Redirect(docsPath+"/"+apiReferences[0].Name, fiber.StatusFound)
}

// page answers the reference of the API the path names.
func (p docsPage) page(c *fiber.Ctx) error {
	view := docsView{Base: docsAssetsPath + "/" + p.files.version}
	for _, ref := range apiReferences {
		current := ref.Name == c.Params("api")
		if current {
			view.Title, view.Contract = ref.Title, ref.Contract
		}
		view.APIs = append(view.APIs, docsLink{Title: ref.Title, Path: docsPath + "/" + ref.Name, Current: current})
	}
	if view.Contract == "" {
		return apierror.NotFound("no API reference %s: the references are %s", c.Path(), docsPath)
	}
	var out bytes.Buffer
	if err := p.template.Execute(&out, view); err != nil {
		return err
	}
	// The page is small and names the assets' version: a browser asks for
	// it again each time, so a new release shows at once.
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Send(out.Bytes())
}
