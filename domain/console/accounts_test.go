package console_test

import (
	"errors"
	"testing"
	"time"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/foundation/keyring"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// clock is a settable time for the accounts under test.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func newAccounts(t *testing.T) (*console.Accounts, *clock) {
	t.Helper()
	ring, err := keyring.Parse([]string{testenv.TestTOTPKey})
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{now: time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)}
	rp, err := console.NewRelyingParty(testOrigin)
	if err != nil {
		t.Fatal(err)
	}
	return &console.Accounts{Store: testenv.Database(t), TOTPKeys: ring, RelyingParty: rp, IdleTimeout: 30 * time.Minute,
		AbsoluteTimeout: 12 * time.Hour, Now: c.Now}, c
}

// codeOf reads the TOTP secret out of a provisioning URI, as an
// authenticator app does, and makes the code of a time.
func codeOf(t *testing.T, uri string, at time.Time) string {
	t.Helper()
	return console.TOTPCode(testenv.TOTPSecret(t, uri), console.TOTPStep(at))
}

func TestSignInSessionAndSignOut(t *testing.T) {
	a, clk := newAccounts(t)
	ctx := t.Context()
	if _, err := a.CreateOperator(ctx, "not an address", console.Reviewer, ""); err == nil {
		t.Error("an account without an e-mail address was created")
	}
	acct, err := a.CreateOperator(ctx, "Reviewer@Example.com", console.Reviewer, "")
	if err != nil {
		t.Fatal(err)
	}
	if acct.Password == "" || acct.Email != "reviewer@example.com" {
		t.Fatalf("account %+v: want a generated password and the address in lower case", acct.User)
	}
	if _, err := a.CreateOperator(ctx, "reviewer@example.com", console.Admin, ""); !errors.Is(err, console.ErrEmailTaken) {
		t.Errorf("a second account with the address: %v", err)
	}

	code := codeOf(t, acct.ProvisioningURI, clk.now)
	if _, err := a.SignIn(ctx, "reviewer@example.com", "wrong password!", code, "192.0.2.1"); !errors.Is(err, console.ErrSignInRefused) {
		t.Errorf("a wrong password: %v", err)
	}
	if _, err := a.SignIn(ctx, "reviewer@example.com", acct.Password, "000000", "192.0.2.1"); !errors.Is(err, console.ErrSignInRefused) {
		t.Errorf("a wrong code: %v", err)
	}
	s, err := a.SignIn(ctx, "REVIEWER@example.com ", acct.Password, code, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if s.User.Role != console.Reviewer || s.User.Kind != console.Operator || s.Token == "" || s.CSRF == "" {
		t.Errorf("session %+v", s)
	}
	if _, err := a.SignIn(ctx, "reviewer@example.com", acct.Password, code, "192.0.2.1"); !errors.Is(err, console.ErrSignInRefused) {
		t.Errorf("a code used twice: %v", err)
	}

	got, err := a.Session(ctx, s.Token)
	if err != nil || got.User.Email != "reviewer@example.com" || got.CSRF != s.CSRF {
		t.Fatalf("the session: %+v %v", got, err)
	}
	if !got.CSRFMatches(s.CSRF) || got.CSRFMatches("") || got.CSRFMatches(s.CSRF+"x") {
		t.Error("the CSRF check is wrong")
	}
	if _, err := a.Session(ctx, s.Token+"x"); !errors.Is(err, console.ErrNoSession) {
		t.Errorf("another token: %v", err)
	}

	// Used within the idle timeout the session lives on; idle longer, it ends.
	clk.now = clk.now.Add(29 * time.Minute)
	if _, err := a.Session(ctx, s.Token); err != nil {
		t.Errorf("after 29 minutes: %v", err)
	}
	clk.now = clk.now.Add(31 * time.Minute)
	if _, err := a.Session(ctx, s.Token); !errors.Is(err, console.ErrNoSession) {
		t.Errorf("after 31 idle minutes: %v", err)
	}

	// However busy, a session ends at its absolute timeout.
	clk.now = clk.now.Add(time.Minute)
	busy, err := a.SignIn(ctx, "reviewer@example.com", acct.Password, codeOf(t, acct.ProvisioningURI, clk.now), "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	for range 24 {
		clk.now = clk.now.Add(29 * time.Minute)
		if _, err := a.Session(ctx, busy.Token); err != nil {
			t.Fatalf("a busy session ended early: %v", err)
		}
	}
	clk.now = clk.now.Add(29 * time.Minute)
	if _, err := a.Session(ctx, busy.Token); !errors.Is(err, console.ErrNoSession) {
		t.Errorf("a session past its absolute timeout: %v", err)
	}

	clk.now = clk.now.Add(time.Minute)
	last, err := a.SignIn(ctx, "reviewer@example.com", acct.Password, codeOf(t, acct.ProvisioningURI, clk.now), "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.SignOut(ctx, last.Token); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Session(ctx, last.Token); !errors.Is(err, console.ErrNoSession) {
		t.Errorf("a signed-out session: %v", err)
	}

	// Disabling an account ends its sessions and its sign-ins.
	clk.now = clk.now.Add(time.Minute)
	open, err := a.SignIn(ctx, "reviewer@example.com", acct.Password, codeOf(t, acct.ProvisioningURI, clk.now), "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Disable(ctx, "reviewer@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Session(ctx, open.Token); !errors.Is(err, console.ErrNoSession) {
		t.Errorf("a disabled account's session: %v", err)
	}
	clk.now = clk.now.Add(time.Minute)
	if _, err := a.SignIn(ctx, "reviewer@example.com", acct.Password, codeOf(t, acct.ProvisioningURI, clk.now), "192.0.2.1"); !errors.Is(err, console.ErrSignInRefused) {
		t.Errorf("a disabled account signs in: %v", err)
	}
	if err := a.Disable(ctx, "nobody@example.com"); !errors.Is(err, console.ErrNoAccount) {
		t.Errorf("disabling an unknown account: %v", err)
	}
}

func TestSignInThrottling(t *testing.T) {
	a, clk := newAccounts(t)
	ctx := t.Context()
	acct, err := a.CreateOperator(ctx, "admin@example.com", console.Admin, "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := a.SignIn(ctx, "admin@example.com", "guess guess guess", "123456", "198.51.100.7"); !errors.Is(err, console.ErrSignInRefused) {
			t.Fatalf("a guess: %v", err)
		}
	}
	// Five failures close the account to every address, the right
	// password and code included, for the window.
	code := codeOf(t, acct.ProvisioningURI, clk.now)
	if _, err := a.SignIn(ctx, "admin@example.com", "a long enough password", code, "203.0.113.9"); !errors.Is(err, console.ErrThrottled) {
		t.Errorf("the sixth attempt: %v", err)
	}
	clk.now = clk.now.Add(console.ThrottleWindow + time.Second)
	if _, err := a.SignIn(ctx, "admin@example.com", "a long enough password", codeOf(t, acct.ProvisioningURI, clk.now), "203.0.113.9"); err != nil {
		t.Errorf("after the window: %v", err)
	}

	// Twenty failures from one address close it for every account.
	for i := range 20 {
		if _, err := a.SignIn(ctx, "someone"+string(rune('a'+i))+"@example.com", "guess guess guess", "123456", "198.51.100.8"); !errors.Is(err, console.ErrSignInRefused) {
			t.Fatalf("guess %d: %v", i, err)
		}
	}
	clk.now = clk.now.Add(time.Minute)
	if _, err := a.SignIn(ctx, "admin@example.com", "a long enough password", codeOf(t, acct.ProvisioningURI, clk.now), "198.51.100.8"); !errors.Is(err, console.ErrThrottled) {
		t.Errorf("from a throttled address: %v", err)
	}
}

func TestAuditLogIsAppendOnly(t *testing.T) {
	a, _ := newAccounts(t)
	ctx := t.Context()
	for _, action := range []string{"offer.accept", "offer.decline"} {
		if err := a.Audit(ctx, console.Entry{ActorEmail: "ops@example.com", Action: action, Target: "offer x", Outcome: console.Succeeded}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := a.AuditLog(ctx, "", time.Time{}, [16]byte{})
	if err != nil || len(all) != 2 || all[0].Action != "offer.decline" {
		t.Fatalf("the log, newest first: %+v %v", all, err)
	}
	accepted, err := a.AuditLog(ctx, "offer.accept", time.Time{}, [16]byte{})
	if err != nil || len(accepted) != 1 {
		t.Errorf("filtered by action: %+v %v", accepted, err)
	}
	for _, stmt := range []string{"UPDATE console_audit SET outcome = 'failed'", "DELETE FROM console_audit", "TRUNCATE console_audit"} {
		if _, err := a.Store.Pool.Exec(ctx, stmt); err == nil {
			t.Errorf("%s was allowed", stmt)
		}
	}
	if all, _ := a.AuditLog(ctx, "", time.Time{}, [16]byte{}); len(all) != 2 || all[0].Outcome != console.Succeeded {
		t.Errorf("the log changed: %+v", all)
	}
}

// A seller user belongs to one seller and signs in like an operator;
// PostgreSQL refuses a seller user with an operator's role.
func TestSellerUsers(t *testing.T) {
	a, c := newAccounts(t)
	ctx := t.Context()
	seller, err := auth.CreateSeller(ctx, a.Store, "Seller "+t.Name(), "EUR")
	if err != nil {
		t.Fatal(err)
	}
	agent, err := a.CreateSellerUser(ctx, seller.Seller.ID, "Agent@Example.com", console.Agent, "")
	if err != nil {
		t.Fatal(err)
	}
	if agent.Kind != console.SellerUser || agent.SellerID == nil || *agent.SellerID != seller.Seller.ID || agent.Email != "agent@example.com" {
		t.Fatalf("created %+v", agent.User)
	}
	s, err := a.SignIn(ctx, "agent@example.com", agent.Password, codeOf(t, agent.ProvisioningURI, c.now), "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if s.User.Kind != console.SellerUser || s.User.Role != console.Agent || *s.User.SellerID != seller.Seller.ID {
		t.Errorf("signed in as %+v", s.User)
	}
	if _, err := a.CreateSellerUser(ctx, seller.Seller.ID, "reviewer@example.com", console.Reviewer, ""); err == nil {
		t.Error("a seller user was made a reviewer")
	}
	if _, err := console.ParseSellerRole("finance"); err == nil {
		t.Error("finance was taken for a seller user role")
	}
	for _, name := range []string{"admin", "agent"} {
		if r, err := console.ParseSellerRole(name); err != nil || string(r) != name {
			t.Errorf("ParseSellerRole(%q) = %q, %v", name, r, err)
		}
	}
}
