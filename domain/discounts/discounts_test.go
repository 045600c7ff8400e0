package discounts_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func seller(t *testing.T, store *db.Store) uuid.UUID {
	t.Helper()
	s, err := auth.CreateSeller(t.Context(), store, "Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	return s.Seller.ID
}

// offer stores a bare offer row for redemptions to point at.
func offer(t *testing.T, store *db.Store, sellerID uuid.UUID) uuid.UUID {
	t.Helper()
	id := uuid.Must(uuid.NewV7())
	err := store.CreateOffer(t.Context(), dbgen.CreateOfferParams{
		ID: id, SellerID: sellerID, SellerOfferReference: id.String(), SalesChannel: "ecommerce",
		Document: []byte(`{}`), ExpiresAt: time.Now().Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func ptr[T any](v T) *T { return &v }

func create(t *testing.T, store *db.Store, sellerID uuid.UUID, n discounts.NewCode) discounts.Code {
	t.Helper()
	c, err := discounts.Create(t.Context(), store.Queries, sellerID, "EUR", n, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCreateListDeactivate(t *testing.T) {
	store := testenv.Database(t)
	s := seller(t, store)
	ctx := t.Context()
	percent := create(t, store, s, discounts.NewCode{Code: "Summer-10", PercentOff: ptr[int32](1000), UsageLimit: ptr[int32](3)})
	amount := create(t, store, s, discounts.NewCode{Code: "WELCOME", AmountOff: &discounts.Amount{Net: 1000, Gross: 1190}, AmountCurrency: "EUR"})
	if percent.PercentOff != 1000 || percent.AmountOff != nil || !percent.Active || *percent.UsageLimit != 3 {
		t.Errorf("percent code %+v", percent)
	}
	if amount.AmountOff == nil || amount.AmountOff.Gross != 1190 || amount.Currency != "EUR" {
		t.Errorf("amount code %+v", amount)
	}
	if _, err := discounts.Create(ctx, store.Queries, s, "EUR", discounts.NewCode{Code: "summer-10", PercentOff: ptr[int32](500)}, time.Now()); !errors.Is(err, discounts.ErrDuplicate) {
		t.Errorf("an active code in another case is a duplicate, got %v", err)
	}
	if _, err := discounts.Create(ctx, store.Queries, seller(t, store), "EUR", discounts.NewCode{Code: "SUMMER-10", PercentOff: ptr[int32](500)}, time.Now()); err != nil {
		t.Errorf("another seller may have the same code: %v", err)
	}

	codes, total, err := discounts.List(ctx, store.Queries, s, false, 1, 1)
	if err != nil || total != 2 || len(codes) != 1 || codes[0].ID != amount.ID {
		t.Errorf("second page of one: %v %d %+v", err, total, codes)
	}
	if _, err := discounts.Deactivate(ctx, store.Queries, s, percent.ID); err != nil {
		t.Fatal(err)
	}
	if _, total, _ := discounts.List(ctx, store.Queries, s, false, 10, 0); total != 1 {
		t.Errorf("inactive codes are left out unless asked for, total %d", total)
	}
	if _, total, _ := discounts.List(ctx, store.Queries, s, true, 10, 0); total != 2 {
		t.Errorf("inactive codes listed on request, total %d", total)
	}
	again := create(t, store, s, discounts.NewCode{Code: "SUMMER-10", PercentOff: ptr[int32](1500)})
	if again.ID == percent.ID {
		t.Error("a deactivated code frees its code for a new one")
	}
	if _, err := discounts.Deactivate(ctx, store.Queries, seller(t, store), again.ID); !db.IsNotFound(err) {
		t.Errorf("another seller's code is not found: %v", err)
	}
}

func TestCreateRefusesBadValues(t *testing.T) {
	store := testenv.Database(t)
	s := seller(t, store)
	past := time.Now().Add(-time.Hour)
	for field, n := range map[string]discounts.NewCode{
		"code":                {Code: "a b", PercentOff: ptr[int32](10)},
		"percent_off":         {Code: "BOTH", PercentOff: ptr[int32](10), AmountOff: &discounts.Amount{Net: 1, Gross: 1}, AmountCurrency: "EUR"},
		"amount_off.currency": {Code: "USD", AmountOff: &discounts.Amount{Net: 100, Gross: 100}, AmountCurrency: "USD"},
		"amount_off.gross":    {Code: "GROSS", AmountOff: &discounts.Amount{Net: 100, Gross: 50}, AmountCurrency: "EUR"},
		"valid_until":         {Code: "OLD", PercentOff: ptr[int32](10), ValidUntil: &past},
		"usage_limit":         {Code: "ZERO", PercentOff: ptr[int32](10), UsageLimit: ptr[int32](0)},
	} {
		_, err := discounts.Create(t.Context(), store.Queries, s, "EUR", n, time.Now())
		var p *discounts.Problem
		if !errors.As(err, &p) || p.Field != field {
			t.Errorf("want a problem with %s, got %v", field, err)
		}
	}
	if _, total, _ := discounts.List(t.Context(), store.Queries, s, true, 10, 0); total != 0 {
		t.Errorf("refused codes were stored: %d", total)
	}
}

func TestCheckSaysWhy(t *testing.T) {
	store := testenv.Database(t)
	s := seller(t, store)
	now := time.Now()
	later, soon := now.Add(48*time.Hour), now.Add(time.Hour)
	create(t, store, s, discounts.NewCode{Code: "LATER", PercentOff: ptr[int32](10), ValidFrom: &later})
	create(t, store, s, discounts.NewCode{Code: "SOON-OVER", PercentOff: ptr[int32](10), ValidUntil: &soon})
	gone := create(t, store, s, discounts.NewCode{Code: "GONE", PercentOff: ptr[int32](10)})
	if _, err := discounts.Deactivate(t.Context(), store.Queries, s, gone.ID); err != nil {
		t.Fatal(err)
	}
	once := create(t, store, s, discounts.NewCode{Code: "ONCE", PercentOff: ptr[int32](10), UsageLimit: ptr[int32](1)})
	redeem(t, store, s, offer(t, store, s), "once", now)

	for code, want := range map[string]discounts.Reason{
		"NOPE": discounts.NotFound, "later": discounts.NotApplicable, "GONE": discounts.Expired, "ONCE": discounts.Exhausted,
	} {
		_, err := discounts.Check(t.Context(), store.Queries, s, code, now)
		var inv *discounts.Invalid
		if !errors.As(err, &inv) || inv.Reason != want || inv.Message == "" {
			t.Errorf("%s: want %s, got %v", code, want, err)
		}
	}
	if _, err := discounts.Check(t.Context(), store.Queries, s, "soon-over", now.Add(2*time.Hour)); !isReason(err, discounts.Expired) {
		t.Errorf("a code past its window is expired, got %v", err)
	}
	if c, err := discounts.Check(t.Context(), store.Queries, s, "Soon-Over", now); err != nil || c.Code != "SOON-OVER" {
		t.Errorf("a code inside its window is valid in any case: %+v %v", c, err)
	}
	if c, _ := discounts.Get(t.Context(), store.Queries, s, once.ID); c.TimesUsed != 1 {
		t.Errorf("times used %d", c.TimesUsed)
	}
}

func isReason(err error, r discounts.Reason) bool {
	var inv *discounts.Invalid
	return errors.As(err, &inv) && inv.Reason == r
}

// redeem applies a code to an offer in a transaction of its own, as the
// offer's acceptance does.
func redeem(t *testing.T, store *db.Store, sellerID, offerID uuid.UUID, code string, now time.Time) error {
	t.Helper()
	return store.InTx(t.Context(), func(q *dbgen.Queries) error {
		_, err := discounts.Redeem(t.Context(), q, sellerID, offerID, code, now)
		return err
	})
}

func TestRedeemCountsOncePerOffer(t *testing.T) {
	store := testenv.Database(t)
	s := seller(t, store)
	c := create(t, store, s, discounts.NewCode{Code: "TWICE", PercentOff: ptr[int32](10), UsageLimit: ptr[int32](2)})
	o := offer(t, store, s)
	for range 3 {
		if err := redeem(t, store, s, o, "twice", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := discounts.Get(t.Context(), store.Queries, s, c.ID); got.TimesUsed != 1 {
		t.Errorf("one offer counts once, got %d", got.TimesUsed)
	}
}

// Twenty offers race for a code five may use, and one offer races itself:
// exactly five other offers get it, the racing offer counts once, and the
// refused ones leave no redemption behind.
func TestRedeemUnderConcurrency(t *testing.T) {
	store := testenv.Database(t)
	s := seller(t, store)
	limited := create(t, store, s, discounts.NewCode{Code: "FIVE", PercentOff: ptr[int32](10), UsageLimit: ptr[int32](5)})
	offers := make([]uuid.UUID, 20)
	for i := range offers {
		offers[i] = offer(t, store, s)
	}
	var wg sync.WaitGroup
	results := make([]error, len(offers))
	for i, o := range offers {
		wg.Go(func() { results[i] = redeem(t, store, s, o, "five", time.Now()) })
	}
	wg.Wait()
	won, exhausted := 0, 0
	for _, err := range results {
		switch {
		case err == nil:
			won++
		case isReason(err, discounts.Exhausted):
			exhausted++
		default:
			t.Errorf("unexpected refusal: %v", err)
		}
	}
	if won != 5 || exhausted != 15 {
		t.Errorf("%d offers got the code and %d were refused, want 5 and 15", won, exhausted)
	}
	var rows int
	if err := store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM discount_redemptions WHERE discount_code_id = $1", limited.ID).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if got, _ := discounts.Get(t.Context(), store.Queries, s, limited.ID); got.TimesUsed != 5 || rows != 5 {
		t.Errorf("times used %d, redemptions %d, want 5 and 5", got.TimesUsed, rows)
	}

	open := create(t, store, s, discounts.NewCode{Code: "OPEN", PercentOff: ptr[int32](10)})
	same := offers[0]
	for range 10 {
		wg.Go(func() {
			if err := redeem(t, store, s, same, "open", time.Now()); err != nil {
				t.Errorf("an offer redeeming its code again is refused: %v", err)
			}
		})
	}
	wg.Wait()
	if got, _ := discounts.Get(t.Context(), store.Queries, s, open.ID); got.TimesUsed != 1 {
		t.Errorf("an offer racing itself counts %d times, want once", got.TimesUsed)
	}
}

// A typed code is looked up by the digest the migration gave the codes
// stored before it, and then compared as text: a row whose digest matches
// but whose code does not is no match.
func TestCodesAreFoundByDigestThenCompared(t *testing.T) {
	store := testenv.Database(t)
	s := seller(t, store)
	c := create(t, store, s, discounts.NewCode{Code: "Summer-10", PercentOff: ptr[int32](1000)})
	var agrees bool
	err := store.Pool.QueryRow(t.Context(), "SELECT code_digest = sha256(convert_to(upper(code), 'UTF8')) FROM discount_codes WHERE id = $1", c.ID).Scan(&agrees)
	if err != nil || !agrees {
		t.Fatalf("the stored digest is not the migration's: %v", err)
	}
	if found, err := discounts.Check(t.Context(), store.Queries, s, "sUMMER-10", time.Now()); err != nil || found.ID != c.ID {
		t.Errorf("the code in another case: %+v %v", found, err)
	}
	if _, err := store.Pool.Exec(t.Context(), "UPDATE discount_codes SET code = 'SUMMER-11' WHERE id = $1", c.ID); err != nil {
		t.Fatal(err)
	}
	for _, typed := range []string{"summer-10", "SUMMER-11"} {
		if _, err := discounts.Check(t.Context(), store.Queries, s, typed, time.Now()); !isReason(err, discounts.NotFound) {
			t.Errorf("%s against a row whose digest is SUMMER-10's and code SUMMER-11: %v", typed, err)
		}
	}
}
