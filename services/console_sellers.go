package services

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/foundation/weburl"
)

// ConsoleSellers are the sellers as operators manage them in the console:
// listed, registered as `tenure sellers create` does, their profile and
// contractual entity, their API clients rotated and revoked as `tenure
// sellers rotate-secret` does; every change written to the audit log.
type ConsoleSellers struct {
	Store *db.Store
	// Sandbox sellers' customers give a mandate, as `tenure sellers
	// create` sets for them.
	Sandbox bool
	// Entities are the deployment's contractual entities, by id; URLs its
	// rule for the URLs customers follow (a profile's logo).
	Entities map[string][]string
	URLs     weburl.Rule
	// Accounts keep the audit log.
	Accounts *console.Accounts
}

// newConsoleSellers are the sellers' service of a configuration.
func newConsoleSellers(cfg *config.Config, store *db.Store, accounts *console.Accounts) *ConsoleSellers {
	return &ConsoleSellers{Store: store, Sandbox: cfg.Environment == config.Sandbox,
		Entities: cfg.Sellers.ContractualEntities, URLs: cfg.FollowedURLs(), Accounts: accounts}
}

// SellersPageSize is how many sellers a page of the list shows.
const SellersPageSize = 50

// SellerTarget names a seller as the audit log's target.
func SellerTarget(sellerID uuid.UUID) string { return "seller " + sellerID.String() }

// List is a page of the sellers by name, after (afterName, afterID); the
// zero values start at the first.
func (s *ConsoleSellers) List(ctx context.Context, afterName string, afterID uuid.UUID) ([]dbgen.ListSellersPageRow, error) {
	return s.Store.ListSellersPage(ctx, dbgen.ListSellersPageParams{AfterName: afterName, AfterID: afterID, PageSize: SellersPageSize})
}

// EntityIDs are the deployment's contractual entities' ids, sorted.
func (s *ConsoleSellers) EntityIDs() []string { return slices.Sorted(maps.Keys(s.Entities)) }

// Create registers a seller with its first API client, as `tenure sellers
// create` does (a sandbox seller's customers give a mandate; its fixtures
// are seeded with `tenure sellers seed`), and audits it. The client's
// secret is in the answer only.
func (s *ConsoleSellers) Create(ctx context.Context, who console.Actor, name, currency string) (auth.NewSeller, error) {
	name, currency = strings.TrimSpace(name), strings.ToUpper(strings.TrimSpace(currency))
	if name == "" || !currencyCode.MatchString(currency) {
		return auth.NewSeller{}, ErrSellerInput
	}
	seller, err := RegisterSeller(ctx, s.Sandbox, s.Store, name, currency)
	target := ""
	if seller.Seller.ID != uuid.Nil {
		target = SellerTarget(seller.Seller.ID)
	}
	return seller, errors.Join(err, s.Accounts.Audit(ctx, who.Entry("seller.create", target, name, sellerOutcome(err))))
}

// RegisterSeller registers a seller and its first API client with the
// settings of the deployment's environment, for `tenure sellers create`
// and the console: a sandbox seller's customers give a mandate, so
// merchants see the checkout's payment step; a production seller's do
// once the operator says so.
func RegisterSeller(ctx context.Context, sandbox bool, store *db.Store, name, currency string) (auth.NewSeller, error) {
	seller, err := auth.CreateSeller(ctx, store, name, currency)
	if err != nil || !sandbox {
		return seller, err
	}
	if _, err := store.SetSellerPaymentMethodRequired(ctx, dbgen.SetSellerPaymentMethodRequiredParams{ID: seller.Seller.ID, Required: true}); err != nil {
		return seller, fmt.Errorf("seller %s was created, but requiring a payment method failed (tenure sellers set-payment-method-required %s on): %w",
			seller.Seller.ID, seller.Seller.ID, err)
	}
	seller.Seller.PaymentMethodRequired = true
	return seller, nil
}

// currencyCode is an ISO 4217 code's form.
var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// ErrSellerInput refuses a seller without a name or currency code.
var ErrSellerInput = errors.New("a seller needs a name and a three-letter ISO 4217 currency code such as EUR")

// SellerPage is what the console shows of one seller.
type SellerPage struct {
	Profile     sellers.Profile
	Credentials []dbgen.SellerCredential
	Users       []dbgen.ConsoleUser
}

// Page reads a seller's profile, API clients and console users.
func (s *ConsoleSellers) Page(ctx context.Context, sellerID uuid.UUID) (SellerPage, error) {
	p, err := sellers.Load(ctx, s.Store.Queries, sellerID)
	if db.IsNotFound(err) {
		return SellerPage{}, ErrSellerNotFound
	}
	if err != nil {
		return SellerPage{}, err
	}
	out := SellerPage{Profile: p}
	if out.Credentials, err = s.Store.ListSellerCredentials(ctx, sellerID); err != nil {
		return out, err
	}
	out.Users, err = s.Store.ListSellerConsoleUsers(ctx, &sellerID)
	return out, err
}

// ProfileChange is what an operator changes of a seller's profile in the
// console.
type ProfileChange struct {
	Name, PrettyName, Email, ContractualEntity string
}

// ProfileRefusedError carries the values a profile refuses, by field.
type ProfileRefusedError struct{ Problems []sellers.Problem }

// Error names every refused value.
func (e *ProfileRefusedError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Error()
	}
	return strings.Join(msgs, "; ")
}

// UpdateProfile changes a seller's names, e-mail address and contractual
// entity under the rules `tenure sellers set-profile` applies, and audits
// it; a refused value changes nothing and answers ProfileRefusedError.
func (s *ConsoleSellers) UpdateProfile(ctx context.Context, who console.Actor, sellerID uuid.UUID, ch ProfileChange) error {
	_, err := sellers.Update(ctx, s.Store, sellerID, func(p *sellers.Profile) error {
		p.Name, p.PrettyName = strings.TrimSpace(ch.Name), strings.TrimSpace(ch.PrettyName)
		p.Email, p.ContractualEntity = strings.TrimSpace(ch.Email), ch.ContractualEntity
		if problems := p.Check(s.Entities, s.URLs); len(problems) > 0 {
			return &ProfileRefusedError{Problems: problems}
		}
		return nil
	})
	if db.IsNotFound(err) {
		return ErrSellerNotFound
	}
	detail := fmt.Sprintf("name %q, contractual entity %q", ch.Name, ch.ContractualEntity)
	return errors.Join(err, s.Accounts.Audit(ctx, who.Entry("seller.profile", SellerTarget(sellerID), detail, sellerOutcome(err))))
}

// RotateSecret gives one of a seller's API clients a new secret, as
// `tenure sellers rotate-secret` and the seller's own admin in the portal
// do: the old one and its access tokens stop working at once. A client of
// another seller is ErrUnknownClient.
func (s *ConsoleSellers) RotateSecret(ctx context.Context, who console.Actor, sellerID uuid.UUID, clientID string) (auth.Credentials, error) {
	creds, err := auth.RotateSellerSecret(ctx, s.Store, sellerID, clientID)
	if errors.Is(err, auth.ErrNoCredential) {
		return auth.Credentials{}, ErrUnknownClient
	}
	return creds, errors.Join(err, s.Accounts.Audit(ctx, who.Entry("seller.rotate_secret", SellerTarget(sellerID), clientID, sellerOutcome(err))))
}

// Revoke ends one of a seller's API clients for good, as the seller's own
// admin can in the portal: it stays listed, revoked, gets no token, and
// its tokens are refused at once. A client of another seller is
// ErrUnknownClient.
func (s *ConsoleSellers) Revoke(ctx context.Context, who console.Actor, sellerID uuid.UUID, clientID string) error {
	err := auth.RevokeCredential(ctx, s.Store, sellerID, clientID)
	if errors.Is(err, auth.ErrNoCredential) {
		return ErrUnknownClient
	}
	return errors.Join(err, s.Accounts.Audit(ctx, who.Entry("seller.revoke_client", SellerTarget(sellerID), clientID, sellerOutcome(err))))
}

// sellerOutcome is how a change of a seller ended for the audit log:
// refused when the rules refused it, failed on any other error.
func sellerOutcome(err error) console.Outcome {
	var refused *ProfileRefusedError
	return outcomeOf(err, errors.As(err, &refused))
}
