package api

import (
	"sync"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/console"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/services"
	consolepage "github.com/tenurehq/tenure/web/console"
)

// consoleAssetsPath is where the console's style sheet and htmx are
// served, under a folder of their version.
const consoleAssetsPath = console.Base + "/assets"

// consolePolicy is the console's Content-Security-Policy: its own script
// (htmx) and style sheet only, nothing inline, forms posted to itself,
// never framed.
const consolePolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// consoleMediaTypes are the kinds of file the console's assets are;
// htmx's LICENSE has no extension.
var consoleMediaTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	"":     "text/plain; charset=utf-8",
}

// consoleFiles are loaded and compressed once per process.
var consoleFiles = sync.OnceValues(func() (staticFiles, error) {
	return loadStaticFiles(consolepage.Assets(), consoleMediaTypes)
})

// mountConsole serves the console and its assets with the console's
// security headers, when the console is configured.
func mountConsole(app *fiber.App, svc *services.Services, g *guard.Guard, d Deps) error {
	if svc.Console == nil {
		return nil
	}
	files, err := consoleFiles()
	if err != nil {
		return err
	}
	group := app.Group(console.Base, consoleHeaders)
	group.Get("/assets/:version/*", files.serve)
	return console.Mount(group, console.Deps{
		Service: svc.Console, Assets: consoleAssetsPath + "/" + files.version, Proxies: g.Proxies(), Logger: d.Logger,
	})
}

// consoleHeaders sets the console's security headers. The referrer stays
// on the console's origin: the language switch returns to the page it was
// used on.
func consoleHeaders(c *fiber.Ctx) error {
	c.Set("Content-Security-Policy", consolePolicy)
	c.Set("Referrer-Policy", "same-origin")
	c.Set("X-Content-Type-Options", "nosniff")
	return c.Next()
}
