package console

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// Session is a signed-in account's session: the token its cookie carries
// (known only to the browser; the database keeps its digest) and the CSRF
// token every changing request must repeat.
type Session struct {
	Token string
	CSRF  string
	User  User
	// ExpiresAt is the absolute end; an idle session ends sooner.
	ExpiresAt time.Time
}

// ErrNoSession is a token of no live session: unknown, signed out,
// expired, idle too long, or of a disabled account.
var ErrNoSession = errors.New("no live console session")

// digest is what the database knows of a token: a leaked table opens no
// session.
func digest(token string) []byte {
	d := sha256.Sum256([]byte(token))
	return d[:]
}

// startSession opens a session for a user who just signed in.
func (a *Accounts) startSession(ctx context.Context, u User) (Session, error) {
	now := a.Now()
	s := Session{Token: rand.Text(), CSRF: rand.Text(), User: u, ExpiresAt: now.Add(a.AbsoluteTimeout)}
	// Signing in is a moment to forget the sessions that ended.
	if err := a.Store.DeleteExpiredConsoleSessions(ctx, now); err != nil {
		return Session{}, err
	}
	err := a.Store.CreateConsoleSession(ctx, dbgen.CreateConsoleSessionParams{
		TokenDigest: digest(s.Token), UserID: u.ID, CsrfToken: s.CSRF, CreatedAt: now, ExpiresAt: s.ExpiresAt,
	})
	return s, err
}

// Session is the live session of a token, its idle clock restarted.
func (a *Accounts) Session(ctx context.Context, token string) (Session, error) {
	if token == "" {
		return Session{}, ErrNoSession
	}
	now := a.Now()
	r, err := a.Store.TouchConsoleSession(ctx, dbgen.TouchConsoleSessionParams{
		Now: now, TokenDigest: digest(token), IdleSince: now.Add(-a.IdleTimeout),
	})
	if db.IsNotFound(err) {
		return Session{}, ErrNoSession
	}
	if err != nil {
		return Session{}, err
	}
	return Session{
		Token: token, CSRF: r.CsrfToken, ExpiresAt: r.ExpiresAt,
		User: User{ID: r.UserID, Kind: Kind(r.Kind), Email: r.Email, Role: Role(r.Role), SellerID: r.SellerID},
	}, nil
}

// SignOut ends the session of a token.
func (a *Accounts) SignOut(ctx context.Context, token string) error {
	return a.Store.DeleteConsoleSession(ctx, digest(token))
}

// CSRFMatches says whether a request repeated its session's CSRF token,
// comparing in constant time.
func (s Session) CSRFMatches(given string) bool {
	return given != "" && subtle.ConstantTimeCompare([]byte(given), []byte(s.CSRF)) == 1
}

// SignOutEverywhere ends every session of an account: on every browser
// and device, the one asking included.
func (a *Accounts) SignOutEverywhere(ctx context.Context, userID uuid.UUID) error {
	return a.Store.DeleteConsoleUserSessions(ctx, userID)
}
