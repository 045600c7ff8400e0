package discounts

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// NewCode is what a seller asks for when creating a code: exactly one of
// PercentOff and AmountOff.
type NewCode struct {
	Code        string
	Description string
	PercentOff  *int32
	AmountOff   *Amount
	// AmountCurrency is the currency the seller wrote the amount in.
	AmountCurrency string
	ValidFrom      *time.Time
	ValidUntil     *time.Time
	UsageLimit     *int32
}

// Problem is a refused value of a new code, naming its field.
type Problem struct {
	Field   string
	Message string
}

func (p *Problem) Error() string { return "field " + p.Field + ": " + p.Message }

// ErrDuplicate is a code the seller already has active (in any case).
var ErrDuplicate = errors.New("the seller already has an active discount code with this code")

// Limits of a new code.
const (
	maxDescription = 255
	maxUsageLimit  = 1_000_000
	// MaxPercentOff is 100 %.
	MaxPercentOff = 10000
)

var codeFormat = regexp.MustCompile(`^[A-Za-z0-9_-]{3,64}$`)

// Create stores a new active code of a seller whose currency is currency.
// It answers a *Problem for a refused value and ErrDuplicate when the
// seller has the code already.
func Create(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, currency string, n NewCode, now time.Time) (Code, error) {
	if err := n.check(currency, now); err != nil {
		return Code{}, err
	}
	params := dbgen.CreateDiscountCodeParams{
		ID: uuid.Must(uuid.NewV7()), SellerID: sellerID, Code: n.Code, Description: n.Description,
		PercentOff: n.PercentOff, Currency: currency, ValidFrom: n.ValidFrom, ValidUntil: n.ValidUntil, UsageLimit: n.UsageLimit,
		CodeDigest: digest(n.Code),
	}
	if n.AmountOff != nil {
		params.AmountOffNet, params.AmountOffGross = &n.AmountOff.Net, &n.AmountOff.Gross
	}
	row, err := q.CreateDiscountCode(ctx, params)
	if db.IsUniqueViolation(err, "discount_codes_active_code_key") {
		return Code{}, ErrDuplicate
	}
	if err != nil {
		return Code{}, err
	}
	return fromRow(row), nil
}

func (n NewCode) check(currency string, now time.Time) error {
	bad := func(field, format string, args ...any) error {
		return &Problem{Field: field, Message: fmt.Sprintf(format, args...)}
	}
	if !codeFormat.MatchString(n.Code) {
		return bad("code", "must be 3 to 64 letters, digits, _ or -")
	}
	if c := utf8.RuneCountInString(n.Description); c > maxDescription {
		return bad("description", "must be at most %d characters, got %d", maxDescription, c)
	}
	switch {
	case (n.PercentOff == nil) == (n.AmountOff == nil):
		return bad("percent_off", "give either percent_off or amount_off")
	case n.PercentOff != nil && (*n.PercentOff < 1 || *n.PercentOff > MaxPercentOff):
		return bad("percent_off", "must be between 1 and %d (percent × 100), got %d", MaxPercentOff, *n.PercentOff)
	case n.AmountOff != nil && n.AmountCurrency != currency:
		return bad("amount_off.currency", "must be the seller's currency %s, got %q", currency, n.AmountCurrency)
	case n.AmountOff != nil && n.AmountOff.Net < 1:
		return bad("amount_off.net", "must be positive, got %d", n.AmountOff.Net)
	case n.AmountOff != nil && n.AmountOff.Gross < n.AmountOff.Net:
		return bad("amount_off.gross", "must be at least net (%d), got %d", n.AmountOff.Net, n.AmountOff.Gross)
	case n.ValidUntil != nil && !n.ValidUntil.After(now):
		return bad("valid_until", "must be in the future")
	case n.ValidUntil != nil && n.ValidFrom != nil && !n.ValidUntil.After(*n.ValidFrom):
		return bad("valid_until", "must be after valid_from")
	case n.UsageLimit != nil && (*n.UsageLimit < 1 || *n.UsageLimit > maxUsageLimit):
		return bad("usage_limit", "must be between 1 and %d, got %d", maxUsageLimit, *n.UsageLimit)
	}
	return nil
}

// Get reads one code of a seller; another seller's code is the query's
// no-rows error, like a missing one.
func Get(ctx context.Context, q *dbgen.Queries, sellerID, id uuid.UUID) (Code, error) {
	row, err := q.GetDiscountCode(ctx, dbgen.GetDiscountCodeParams{SellerID: sellerID, ID: id})
	return fromRow(row), err
}

// List returns one page of a seller's codes in creation order and how
// many there are in all.
func List(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, includeInactive bool, limit, offset int64) ([]Code, int64, error) {
	rows, err := q.ListDiscountCodes(ctx, dbgen.ListDiscountCodesParams{
		SellerID: sellerID, IncludeInactive: includeInactive, RowLimit: limit, RowOffset: offset,
	})
	if err != nil {
		return nil, 0, err
	}
	codes := make([]Code, len(rows))
	var total int64
	for i, r := range rows {
		codes[i], total = fromRow(r.DiscountCode), r.TotalCount
	}
	return codes, total, nil
}

// Deactivate stops a code from being applied from now on; offers it was
// applied to keep it. It frees the code for a new one.
func Deactivate(ctx context.Context, q *dbgen.Queries, sellerID, id uuid.UUID) (Code, error) {
	row, err := q.DeactivateDiscountCode(ctx, dbgen.DeactivateDiscountCodeParams{SellerID: sellerID, ID: id})
	return fromRow(row), err
}
