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

// Start opens a session for an offer and returns it with the link to send
// the customer to. returnURL receives the session id as idv_session.
func Start(ctx context.Context, q *dbgen.Queries, p Provider, sellerID, offerID uuid.UUID, returnURL string) (Session, string, error) {
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
