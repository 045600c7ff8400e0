package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"slices"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/pricing"
	consolepage "github.com/tenurehq/tenure/web/console"
)

// languages are the console's languages, in the switch's order, each
// named in itself.
var languages = []struct {
	Code pricing.Language
	Name string
}{
	{pricing.English, "English"},
	{pricing.German, "Deutsch"},
	{pricing.Dutch, "Nederlands"},
}

// pages are the console's page templates, each the layout with the
// partials and one page's content, by the page's file name.
type pages struct {
	sets     map[string]*template.Template
	catalogs map[pricing.Language]map[string]string
}

// partials are parsed into every page.
var partials = []string{"layout.html", "risk.html", "records_timeline.html"}

// loadPages parses every page and reads the catalogs; a key missing from
// a catalog is a mistake caught here, not on a page.
func loadPages() (*pages, error) {
	p := &pages{sets: map[string]*template.Template{}, catalogs: map[pricing.Language]map[string]string{}}
	names, err := fs.Glob(consolepage.Templates(), "*.html")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if slices.Contains(partials, name) {
			continue
		}
		set, err := template.ParseFS(consolepage.Templates(), append(partials[:len(partials):len(partials)], name)...)
		if err != nil {
			return nil, err
		}
		p.sets[name] = set
	}
	for _, l := range languages {
		catalog, err := readCatalog(string(l.Code))
		if err != nil {
			return nil, err
		}
		p.catalogs[l.Code] = catalog
	}
	for key := range p.catalogs[pricing.English] {
		for _, l := range languages {
			if _, ok := p.catalogs[l.Code][key]; !ok {
				return nil, fmt.Errorf("console messages %s lack %q", l.Code, key)
			}
		}
	}
	return p, nil
}

// readCatalog merges a language's catalog files (one per area of the
// console, so each area keeps its texts beside the others'); a key in two
// files is a mistake.
func readCatalog(lang string) (map[string]string, error) {
	files, err := fs.Glob(consolepage.Messages(), lang+"/*.json")
	if err != nil {
		return nil, err
	}
	catalog := map[string]string{}
	for _, name := range files {
		raw, err := fs.ReadFile(consolepage.Messages(), name)
		if err != nil {
			return nil, err
		}
		var part map[string]string
		if err := json.Unmarshal(raw, &part); err != nil {
			return nil, fmt.Errorf("console messages %s: %w", name, err)
		}
		for key, text := range part {
			if _, twice := catalog[key]; twice {
				return nil, fmt.Errorf("console messages %s: %q is defined twice", name, key)
			}
			catalog[key] = text
		}
	}
	return catalog, nil
}

// view is what every page template sees; Data is the page's own.
type view struct {
	Lang      pricing.Language
	Title     string
	Assets    string
	User      *console.User
	CSRF      string
	Nav       []navLink
	Languages []languageLink
	// Notice says an action succeeded; Problem why a request failed.
	Notice, Problem string
	Data            any
	catalog         map[string]string
	// table is the route table, for links the viewer may follow.
	table []route
}

// navLink is one entry of the console's navigation.
type navLink struct {
	Label, Path string
	Current     bool
}

// languageLink is one language of the switch.
type languageLink struct {
	Code    pricing.Language
	Name    string
	Current bool
}

// T is the text of a key in the page's language.
func (v view) T(key string) string {
	if s, ok := v.catalog[key]; ok {
		return s
	}
	return key
}

// Tf is the text of a key with its %s filled in.
func (v view) Tf(key string, args ...any) string {
	return fmt.Sprintf(v.T(key), args...)
}

// formatTime writes a moment for operators: UTC, to the minute, the same
// in every language, so entries compare at a glance.
func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// isoTime is a moment for a <time datetime>.
func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// render writes a page with a status; pages are never stored, as they
// show customers' data and carry a CSRF token.
func (p *pages) render(c *fiber.Ctx, status int, page string, v view) error {
	var out bytes.Buffer
	if err := p.sets[page].ExecuteTemplate(&out, "layout.html", v); err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Status(status).Send(out.Bytes())
}
