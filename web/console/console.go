// Package console holds the console at /console/: its page templates,
// its message catalogs in en, de and nl, and its assets (Tenure's own style
// sheet, and htmx, vendored from npm by make vendor-console), embedded in
// the tenure binary so the console loads nothing from elsewhere.
package console

import (
	"embed"
	"io/fs"
)

//go:embed templates assets messages
var files embed.FS

// Templates are the pages' html/template files: layout.html frames every
// page, each other file defines a page's "content".
func Templates() fs.FS { return sub("templates") }

// Assets are the files the pages load: console.css and htmx/ with its
// licence.
func Assets() fs.FS { return sub("assets") }

// Messages are the catalogs: a folder per language (en, de, nl) with a JSON
// object of key → text per area of the console (common.json, review.json…).
func Messages() fs.FS { return sub("messages") }

func sub(dir string) fs.FS {
	s, err := fs.Sub(files, dir)
	if err != nil {
		// fs.Sub fails only for an invalid path, and these are valid.
		panic(err)
	}
	return s
}
