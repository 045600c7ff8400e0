package idv

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// Status is where a session stands.
type Status string

// Session statuses.
const (
	SessionPending  Status = "pending"
	SessionVerified Status = "verified"
	SessionFailed   Status = "failed"
	// SessionExpired is a pending session that was replaced after its link
	// expired; its verdict may still arrive.
	SessionExpired Status = "expired"
)

// Session is one verification attempt of an offer's customer.
type Session struct {
	ID            uuid.UUID
	SellerID      uuid.UUID
	OfferID       uuid.UUID
	Provider      string
	Status        Status
	ReturnURL     string
	LinkExpiresAt time.Time
	CreatedAt     time.Time
}

func fromRow(r dbgen.IdvSession) Session {
	return Session{
		ID: r.ID, SellerID: r.SellerID, OfferID: r.OfferID, Provider: r.Provider, Status: Status(r.Status),
		ReturnURL: r.ReturnUrl, LinkExpiresAt: r.LinkExpiresAt, CreatedAt: r.CreatedAt,
	}
}

// Start answers the session of an offer's customer with the link to send
// the customer to: the offer's open session (pending, its link unexpired,
// made for this provider and return address) with the same link as when
// it was opened, else a new session. An offer has one open session at a
// time, also under concurrent calls: the database refuses a second pending
// one (idv_sessions_one_open_key), and the call that loses reads the
// winner's. returnURL receives the session id as idv_session.
func Start(ctx context.Context, q *dbgen.Queries, p Provider, sellerID, offerID uuid.UUID, returnURL string) (Session, string, error) {
	// A request that loses the race to open a session reads the winner's in
	// the next round; the third covers a session opened meanwhile for
	// another provider, by a process configured otherwise.
	for range 3 {
		pending, err := q.PendingIDVSession(ctx, dbgen.PendingIDVSessionParams{SellerID: sellerID, OfferID: offerID})
		switch {
		case err == nil:
			s := fromRow(pending)
			if back, err := withSession(returnURL, s.ID); err == nil && back == s.ReturnURL && s.Provider == p.Name && p.now().Before(s.LinkExpiresAt) {
				link, err := p.Link(s.ID.String(), s.ReturnURL, s.LinkExpiresAt)
				return s, link, err
			}
			if err := q.ExpireIDVSession(ctx, s.ID); err != nil {
				return Session{}, "", err
			}
		case !db.IsNotFound(err):
			return Session{}, "", err
		}
		s, link, err := open(ctx, q, p, sellerID, offerID, returnURL)
		if !db.IsNotFound(err) {
			return s, link, err
		}
	}
	return Session{}, "", errors.New("identity verification sessions of the offer kept changing while one was opened")
}

// open inserts a new session; db.IsNotFound when the offer already has a
// pending one.
func open(ctx context.Context, q *dbgen.Queries, p Provider, sellerID, offerID uuid.UUID, returnURL string) (Session, string, error) {
	id := uuid.Must(uuid.NewV7())
	back, err := withSession(returnURL, id)
	if err != nil {
		return Session{}, "", err
	}
	expires := p.now().Add(p.SessionTTL).Truncate(time.Second)
	link, err := p.Link(id.String(), back, expires)
	if err != nil {
		return Session{}, "", err
	}
	row, err := q.CreateIDVSession(ctx, dbgen.CreateIDVSessionParams{
		ID: id, SellerID: sellerID, OfferID: offerID, Provider: p.Name, ReturnUrl: back, LinkExpiresAt: expires,
	})
	if err != nil {
		return Session{}, "", err
	}
	return fromRow(row), link, nil
}

// Latest is an offer's newest session, nil when it has none.
func Latest(ctx context.Context, q *dbgen.Queries, sellerID, offerID uuid.UUID) (*Session, error) {
	row, err := q.LatestIDVSession(ctx, dbgen.LatestIDVSessionParams{SellerID: sellerID, OfferID: offerID})
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s := fromRow(row)
	return &s, nil
}

// Errors of Decide.
var (
	ErrUnknownSession = errors.New("no such verification session")
	ErrDecided        = errors.New("the session was already decided with the other result")
)

// Verdict is a provider's result for a session.
type Verdict struct {
	SessionID         uuid.UUID
	Status            Status
	ProviderReference string
	Reason            string
}

// Decide records a provider's verdict once. The same verdict again changes
// nothing and succeeds, so a provider may retry its callback; the other
// verdict for a decided session is ErrDecided.
func Decide(ctx context.Context, q *dbgen.Queries, v Verdict) (Session, error) {
	row, err := q.DecideIDVSession(ctx, dbgen.DecideIDVSessionParams{
		ID: v.SessionID, Status: string(v.Status), ProviderReference: v.ProviderReference, Reason: v.Reason,
	})
	if err == nil {
		return fromRow(row), nil
	}
	if !db.IsNotFound(err) {
		return Session{}, err
	}
	current, err := q.GetIDVSession(ctx, v.SessionID)
	if db.IsNotFound(err) {
		return Session{}, ErrUnknownSession
	}
	if err != nil {
		return Session{}, err
	}
	if Status(current.Status) != v.Status {
		return Session{}, ErrDecided
	}
	return fromRow(current), nil
}
