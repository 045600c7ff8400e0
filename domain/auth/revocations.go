package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/offers"
)

// The channels PostgreSQL announces changes on: migration 00050's trigger
// every change of a seller credential, with its client id as payload;
// migration 00088's every change of an offer's standing, with its id.
const (
	credentialChanges = "seller_credential_changed"
	standingChanges   = "offer_standing_changed"
)

// ErrRevoked is returned for a token that no longer opens what it was
// issued for: a seller token whose credential has been rotated or deleted
// since, a customer token whose offer is over (ErrOfferClosed).
var ErrRevoked = errors.New("the access token was revoked")

// ErrOfferClosed is returned for a customer token whose offer is over:
// final (accepted, declined, voided, expired), superseded by an edit, or
// gone with its seller (offers.ReachRevoked).
var ErrOfferClosed = fmt.Errorf("%w: its offer is over", ErrRevoked)

// Revocations tells whether an access token still opens what it was
// issued for: a seller token, whether it was issued under its credential's
// current generation, which every rotation of the secret advances; a
// customer token, how far its offer reaches now (offers.Reach). It caches
// generations and offers' standings only while its own connection LISTENs
// to the changes PostgreSQL announces at commit; without that connection it
// asks the database on every check, so no cached answer outlives the
// knowledge that it is current.
type Revocations struct {
	store  *db.Store
	logger *slog.Logger

	generations *announced[string, int32]
	standings   *announced[uuid.UUID, offers.Standing]
}

// NewRevocations returns a checker that asks the database until Listen runs.
func NewRevocations(store *db.Store, logger *slog.Logger) *Revocations {
	return &Revocations{
		store:  store,
		logger: logger,
		generations: newAnnounced(credentialChanges, func(clientID string) (string, bool) { return clientID, true },
			store.GetSellerCredentialGeneration),
		standings: newAnnounced(standingChanges, func(id string) (uuid.UUID, bool) {
			offerID, err := uuid.Parse(id)
			return offerID, err == nil
		}, func(ctx context.Context, offerID uuid.UUID) (offers.Standing, error) {
			row, err := store.GetOfferStanding(ctx, offerID)
			return offers.Standing{Status: offers.Status(row.Status), Superseded: row.Superseded}, err
		}),
	}
}

// Check returns an error wrapping ErrRevoked when the token's credential no
// longer exists or has been rotated since the token was issued; any other
// error means the database could not be asked.
func (r *Revocations) Check(ctx context.Context, c Claims) error {
	generation, err := r.generations.get(ctx, c.ClientID)
	switch {
	case db.IsNotFound(err):
		return fmt.Errorf("%w: client %s no longer exists", ErrRevoked, c.ClientID)
	case err != nil:
		return fmt.Errorf("reading the generation of client %s: %w", c.ClientID, err)
	case generation != c.Generation:
		return fmt.Errorf("%w: issued under generation %d of client %s, which is at %d", ErrRevoked, c.Generation, c.ClientID, generation)
	}
	return nil
}

// CheckOffer answers how far a customer token's offer reaches now: an
// error wrapping ErrOfferClosed when the offer is over (the token is
// revoked), else offers.ReachStatus or offers.ReachCheckout. Any other
// error means the database could not be asked.
func (r *Revocations) CheckOffer(ctx context.Context, c OfferClaims) (offers.Reach, error) {
	standing, err := r.standings.get(ctx, c.OfferID)
	switch {
	case db.IsNotFound(err):
		return offers.ReachRevoked, fmt.Errorf("%w: offer %s no longer exists", ErrOfferClosed, c.OfferID)
	case err != nil:
		return offers.ReachRevoked, fmt.Errorf("reading the standing of offer %s: %w", c.OfferID, err)
	}
	reach := standing.Reach()
	if reach == offers.ReachRevoked {
		return reach, fmt.Errorf("%w: offer %s is %s (superseded: %v)", ErrOfferClosed, c.OfferID, standing.Status, standing.Superseded)
	}
	return reach, nil
}

// caches are the caches the notification connection keeps trustworthy.
func (r *Revocations) caches() []announcements {
	return []announcements{r.generations, r.standings}
}

// Listen keeps the caches trustworthy until ctx ends: it LISTENs for the
// changes of credentials and offers on one connection of its own and
// forgets what it is told changed. While that connection is down the caches
// are dropped and unused, and Listen reconnects with a growing pause.
func (r *Revocations) Listen(ctx context.Context) {
	const firstPause, longestPause = time.Second, 30 * time.Second
	pause := firstPause
	for {
		connected, err := r.listenOnce(ctx)
		r.setListening(false)
		if ctx.Err() != nil {
			return
		}
		if connected {
			pause = firstPause
		}
		r.logger.WarnContext(ctx, "credential and offer change notifications are down; every access token is checked against the database until they are back",
			"error", err, "retry_in", pause)
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, longestPause)
	}
}

// listenOnce listens until the connection fails or ctx ends; connected says
// whether it got as far as listening.
func (r *Revocations) listenOnce(ctx context.Context) (connected bool, err error) {
	config := r.store.Pool.Config().ConnConfig.Copy()
	config.RuntimeParams["application_name"] = "tenure revocations"
	conn, err := pgx.ConnectConfig(ctx, config)
	if err != nil {
		return false, err
	}
	defer func() {
		closing, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = conn.Close(closing)
	}()
	byChannel := map[string]announcements{}
	for _, c := range r.caches() {
		if _, err := conn.Exec(ctx, "LISTEN "+c.channelName()); err != nil {
			return false, err
		}
		byChannel[c.channelName()] = c
	}
	// Changes committed before LISTEN took effect were not announced to
	// this connection: trust starts with empty caches.
	r.setListening(true)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true, err
		}
		if c, ok := byChannel[n.Channel]; ok {
			c.forget(n.Payload)
		}
	}
}

// setListening empties the caches and says whether they may be filled and
// used.
func (r *Revocations) setListening(on bool) {
	for _, c := range r.caches() {
		c.setListening(on)
	}
}
