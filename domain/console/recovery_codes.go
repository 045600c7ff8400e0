package console

import (
	"context"
	"crypto/rand"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// RecoveryCodeCount is how many recovery codes an account gets at once.
const RecoveryCodeCount = 10

// NewRecoveryCodes gives an account fresh recovery codes, to be shown
// once, and forgets its older ones. Each code is 16 base32 characters (80
// random bits) in groups of four; only its SHA-256 digest is kept, which
// is enough for so much randomness, as for session tokens.
func (a *Accounts) NewRecoveryCodes(ctx context.Context, userID uuid.UUID) ([]string, error) {
	codes := make([]string, RecoveryCodeCount)
	err := a.Store.InTx(ctx, func(q *dbgen.Queries) error {
		if err := q.DeleteConsoleRecoveryCodes(ctx, userID); err != nil {
			return err
		}
		for i := range codes {
			raw := strings.ToLower(rand.Text()[:16])
			codes[i] = raw[:4] + "-" + raw[4:8] + "-" + raw[8:12] + "-" + raw[12:]
			if err := q.CreateConsoleRecoveryCode(ctx, dbgen.CreateConsoleRecoveryCodeParams{
				Digest: digest(raw), UserID: userID,
			}); err != nil {
				return err
			}
		}
		return nil
	})
	return codes, err
}

// RecoveryCodesLeft is how many unused recovery codes an account has.
func (a *Accounts) RecoveryCodesLeft(ctx context.Context, userID uuid.UUID) (int, error) {
	n, err := a.Store.CountConsoleRecoveryCodes(ctx, userID)
	return int(n), err
}

// useRecoveryCode spends one of an account's recovery codes, however it
// was typed (case, spaces, dashes); false when the account has no such
// code.
func (a *Accounts) useRecoveryCode(ctx context.Context, userID uuid.UUID, code string) (bool, error) {
	raw := strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(code))
	n, err := a.Store.UseConsoleRecoveryCode(ctx, dbgen.UseConsoleRecoveryCodeParams{Digest: digest(raw), UserID: userID})
	return n == 1, err
}
