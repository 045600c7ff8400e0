// Package checkout holds the hosted checkout page that checkout_redirect_url
// opens: its shell (an HTML template the api package fills in per request)
// and its assets (plain ES modules, one style sheet and the message
// catalogs), embedded in the tenure binary so that nothing else has to run
// or be built to serve it.
package checkout

import (
	"embed"
	"io/fs"
)

//go:embed assets
var files embed.FS

// Shell is the page's HTML template; the api package fills in the
// language, the page's own words and the versioned asset paths.
//
//go:embed shell.html
var Shell string

// Assets are the files the page loads, rooted at the assets folder: app.js
// is the entry module, checkout.css the style sheet, messages/<lang>.json
// the message catalogs.
func Assets() fs.FS {
	sub, err := fs.Sub(files, "assets")
	if err != nil {
		// fs.Sub fails only for an invalid path, and "assets" is valid.
		panic(err)
	}
	return sub
}
