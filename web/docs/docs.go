// Package docs holds the API reference that /docs serves: a page template
// and its assets (Tenure's own start script and style sheet, and Swagger UI,
// the OpenAPI renderer, vendored from npm by make vendor-docs), embedded in
// the tenure binary so that the reference works offline and loads nothing
// from elsewhere.
package docs

import (
	"embed"
	"io/fs"
)

//go:embed assets
var files embed.FS

// Page is the reference's HTML template; the api package fills in the
// contract it renders and the versioned asset paths.
//
//go:embed page.html
var Page string

// Assets are the files the page loads, rooted at the assets folder: docs.js
// starts the renderer, docs.css styles the page's own header, swagger-ui/
// is the vendored renderer with its licences.
func Assets() fs.FS {
	sub, err := fs.Sub(files, "assets")
	if err != nil {
		// fs.Sub fails only for an invalid path, and "assets" is valid.
		panic(err)
	}
	return sub
}
