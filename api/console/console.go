// Package console serves the console at /console/: server-rendered pages
// for operators, signed in with a passkey or a password and a TOTP code
// (or a recovery code), each route open to the roles its entry in the
// route table names (routes.go), every changing request checked for its
// session's CSRF token and its origin.
// What the pages show and do comes from services.Console, which takes
// every decision through the same workflows as the command line.
package console

import (
	"errors"
	"log/slog"
	"net/netip"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/services"
)

// Base is the console's path on the public listener.
const Base = "/console"

// Deps are what the console needs.
type Deps struct {
	Service *services.Console
	// Assets is the versioned path its style sheet and htmx are served at.
	Assets string
	// Proxies are the trusted proxies, to know the client's address.
	Proxies []netip.Prefix
	Logger  *slog.Logger
}

// server holds what every handler uses.
type server struct {
	Deps
	pages *pages
	// table is the route table, made once: every page's navigation and
	// the audit log's links read it.
	table []route
}

// Mount registers every route of the route table on router, which is
// the group at Base, each behind the session, rights and CSRF checks its
// entry asks for.
func Mount(router fiber.Router, d Deps) error {
	p, err := loadPages()
	if err != nil {
		return err
	}
	s := &server{Deps: d, pages: p, table: routes()}
	for _, r := range s.table {
		handle := r.handle
		router.Add(r.method, r.path, s.session, s.rights(r), func(c *fiber.Ctx) error { return handle(s, c) })
	}
	return nil
}

// sessionCookie carries the session's token. __Host- makes the browser
// keep it to this origin, path / and Secure; HttpOnly keeps it from
// scripts; SameSite=Strict from every request another site starts.
const sessionCookie = "__Host-tenure_console"

// languageCookie keeps the language chosen with the switch.
const languageCookie = "tenure_console_lang"

// sessionKey is where a request's live session waits for its handler.
const sessionKey = "tenure.console_session"

// session looks up the request's session, if its cookie names a live one.
func (s *server) session(c *fiber.Ctx) error {
	token := c.Cookies(sessionCookie)
	if token == "" {
		return c.Next()
	}
	sess, err := s.Service.Accounts.Session(c.UserContext(), token)
	switch {
	case errors.Is(err, console.ErrNoSession):
		return c.Next()
	case err != nil:
		return s.failed(c, err)
	}
	c.Locals(sessionKey, sess)
	return c.Next()
}

// sessionOf is the request's live session, if it has one.
func sessionOf(c *fiber.Ctx) (console.Session, bool) {
	sess, ok := c.Locals(sessionKey).(console.Session)
	return sess, ok
}

// language is the language of the request: the switch's cookie, else the
// browser's Accept-Language.
func language(c *fiber.Ctx) pricing.Language {
	for _, l := range languages {
		if string(l.Code) == c.Cookies(languageCookie) {
			return l.Code
		}
	}
	return pricing.ParseAcceptLanguage(c.Get(fiber.HeaderAcceptLanguage))
}

// actor is who makes the request and from where, for the audit log.
func (s *server) actor(c *fiber.Ctx, u console.User) console.Actor {
	return console.Actor{User: u, Address: s.address(c), RequestID: guard.RequestID(c)}
}

// address is the client's address, behind the trusted proxies.
func (s *server) address(c *fiber.Ctx) string {
	if ip, ok := guard.ClientIP(c, s.Proxies); ok {
		return ip.String()
	}
	return c.IP()
}

// view is the frame of a page for the request: its language, its user
// and navigation when signed in.
func (s *server) view(c *fiber.Ctx, titleKey string) view {
	lang := language(c)
	v := view{Lang: lang, Assets: s.Assets, catalog: s.pages.catalogs[lang], table: s.table}
	v.Title = v.T(titleKey)
	for _, l := range languages {
		v.Languages = append(v.Languages, languageLink{Code: l.Code, Name: l.Name, Current: l.Code == lang})
	}
	if sess, ok := sessionOf(c); ok {
		v.User, v.CSRF = &sess.User, sess.CSRF
		for _, r := range s.table {
			if r.nav != "" && r.allows(sess.User) {
				v.Nav = append(v.Nav, navLink{Label: r.nav, Path: Base + r.path, Current: c.Path() == Base+r.path})
			}
		}
	}
	return v
}
