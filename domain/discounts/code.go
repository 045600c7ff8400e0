// Package discounts keeps sellers' discount codes: a percentage off the
// monthly rent or an amount off, valid within an optional window for an
// optional number of offers, and counted once per offer they are applied to.
package discounts

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/pricing"
)

// Code is a seller's discount code.
type Code struct {
	ID          uuid.UUID
	SellerID    uuid.UUID
	Code        string
	Description string
	// PercentOff is percent × 100 (1000 is 10 %); zero for an amount code.
	PercentOff int32
	// AmountOff is set for an amount code, in the seller's currency.
	AmountOff  *Amount
	Currency   string
	ValidFrom  *time.Time
	ValidUntil *time.Time
	// UsageLimit is how many offers may use the code; nil is no limit.
	UsageLimit    *int32
	TimesUsed     int32
	Active        bool
	CreatedAt     time.Time
	DeactivatedAt *time.Time
}

// Amount is an amount off in minor units of the seller's currency.
type Amount struct {
	Net   int64
	Gross int64
}

func fromRow(r dbgen.DiscountCode) Code {
	c := Code{
		ID: r.ID, SellerID: r.SellerID, Code: r.Code, Description: r.Description, Currency: r.Currency,
		ValidFrom: r.ValidFrom, ValidUntil: r.ValidUntil, UsageLimit: r.UsageLimit, TimesUsed: r.TimesUsed,
		Active: r.Active, CreatedAt: r.CreatedAt, DeactivatedAt: r.DeactivatedAt,
	}
	if r.PercentOff != nil {
		c.PercentOff = *r.PercentOff
	}
	if r.AmountOffNet != nil && r.AmountOffGross != nil {
		c.AmountOff = &Amount{Net: *r.AmountOffNet, Gross: *r.AmountOffGross}
	}
	return c
}

// usable says why the code cannot be applied at now, or nil when it can.
func (c Code) usable(now time.Time) *Invalid {
	switch {
	case !c.Active:
		return invalid(Expired, "discount code %s is no longer valid", c.Code)
	case c.ValidUntil != nil && !now.Before(*c.ValidUntil):
		return invalid(Expired, "discount code %s expired at %s", c.Code, c.ValidUntil.UTC().Format(time.RFC3339))
	case c.ValidFrom != nil && now.Before(*c.ValidFrom):
		return invalid(NotApplicable, "discount code %s is valid from %s", c.Code, c.ValidFrom.UTC().Format(time.RFC3339))
	case c.UsageLimit != nil && c.TimesUsed >= *c.UsageLimit:
		return invalid(Exhausted, "discount code %s has been used as often as it may be", c.Code)
	}
	return nil
}

// Pricing is the code as the pricing engine applies it.
func (c Code) Pricing() pricing.Discount {
	d := pricing.Discount{ID: c.ID.String(), BasisPoints: int64(c.PercentOff)}
	if c.AmountOff != nil {
		d.FixedNet, d.Currency = c.AmountOff.Net, c.Currency
	}
	return d
}
