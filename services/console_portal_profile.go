package services

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/console"
)

// A seller user's sales profile: the name and phone customers see on the
// offers the user makes, the Seller API's sales_agent. The offer builder
// fills them in from it, so an agent does not type them for every offer.

// SalesProfile is a seller user's name and phone as the sales agent of
// their offers.
type SalesProfile struct {
	FullName, Phone string
	// UpdatedAt is when the user last saved it; zero when they never did.
	UpdatedAt time.Time
}

// salesAgentMaxLength is the longest name or phone the Seller API's
// sales_agent takes (x-tenure-max-length).
const salesAgentMaxLength = 255

// ProfileProblems refuses a sales profile: what is wrong with each field
// ("full_name", "phone"), as "required" or "too_long".
type ProfileProblems map[string]string

// Error names the fields refused.
func (p ProfileProblems) Error() string {
	var out []string
	for field, problem := range p {
		out = append(out, field+": "+problem)
	}
	return "the sales profile is refused: " + strings.Join(out, ", ")
}

// SalesProfileOf is the user's sales profile; an empty one when they
// have not saved one.
func (c *Console) SalesProfileOf(ctx context.Context, u console.User) (SalesProfile, error) {
	if _, err := PortalSeller(u); err != nil {
		return SalesProfile{}, err
	}
	row, err := c.Accounts.Store.GetSellerUserProfile(ctx, u.ID)
	if db.IsNotFound(err) {
		return SalesProfile{}, nil
	}
	if err != nil {
		return SalesProfile{}, err
	}
	return SalesProfile{FullName: row.FullName, Phone: row.Phone, UpdatedAt: row.UpdatedAt}, nil
}

// SaveSalesProfile keeps the signed-in seller user's name and phone, both
// required and as long as the Seller API's sales_agent takes at most, and
// audits it; a refused profile changes nothing and is not audited.
func (c *Console) SaveSalesProfile(ctx context.Context, who console.Actor, p SalesProfile) (SalesProfile, error) {
	if _, err := PortalSeller(who.User); err != nil {
		return SalesProfile{}, err
	}
	p.FullName, p.Phone = strings.TrimSpace(p.FullName), strings.TrimSpace(p.Phone)
	problems := ProfileProblems{}
	for field, value := range map[string]string{"full_name": p.FullName, "phone": p.Phone} {
		switch {
		case value == "":
			problems[field] = "required"
		case utf8.RuneCountInString(value) > salesAgentMaxLength:
			problems[field] = "too_long"
		}
	}
	if len(problems) > 0 {
		return SalesProfile{}, problems
	}
	row, err := c.Accounts.Store.SaveSellerUserProfile(ctx, dbgen.SaveSellerUserProfileParams{
		UserID: who.User.ID, FullName: p.FullName, Phone: p.Phone,
	})
	saved := SalesProfile{FullName: row.FullName, Phone: row.Phone, UpdatedAt: row.UpdatedAt}
	return saved, c.audited(ctx, who, "portal.profile.update", UserTarget(who.User.Email), p.FullName+", "+p.Phone, refusalOutcome(err), err)
}
