package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// `tenure sellers users add` makes a seller user with an invitation link,
// not a password; list shows them invited; disable ends them, and only
// seller users.
func TestSellerUsersCommands(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 2)
	seller, err := auth.CreateSeller(t.Context(), store, "CLI Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	id := seller.Seller.ID.String()
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL, "TENURE_DATA_DIR="+t.TempDir(),
		"TENURE_CONSOLE_TOTP_KEYS="+testenv.TestTOTPKey, "TENURE_HTTP_PUBLIC_URL=https://tenure.example")

	added := string(tenureCLI(t, env, "sellers", "users", "add", id, "Boss@Example.com", "--role", "admin"))
	if !strings.Contains(added, "seller user boss@example.com (admin) created") ||
		!regexp.MustCompile(`(?m)^invitation: https://tenure\.example/console/invitation/[A-Z2-7]{26}$`).MatchString(added) ||
		strings.Contains(added, "password") || strings.Contains(added, "otpauth") {
		t.Errorf("add printed:\n%s", added)
	}
	if out, err := tenureCLIFails(t, env, "sellers", "users", "add", id, "x@example.com", "--role", "reviewer"); err == nil || !strings.Contains(out, `"reviewer" is not a seller user role`) {
		t.Errorf("an operator's role: %v %s", err, out)
	}
	if out, err := tenureCLIFails(t, env, "sellers", "users", "add", "0194f3c2-0000-7000-8000-000000000000", "y@example.com", "--role", "agent"); err == nil || !strings.Contains(out, "no seller with id") {
		t.Errorf("an unknown seller: %v %s", err, out)
	}
	tenureCLI(t, env, "sellers", "users", "add", id, "sales@example.com", "--role", "agent")
	tenureCLI(t, env, "operators", "create", "ops@example.com", "--role", "admin")
	if out, err := tenureCLIFails(t, env, "sellers", "users", "disable", "ops@example.com"); err == nil || !strings.Contains(out, "no seller user with this e-mail address") {
		t.Errorf("disabling an operator as a seller user: %v %s", err, out)
	}
	if out := string(tenureCLI(t, env, "sellers", "users", "disable", "Sales@example.com")); !strings.Contains(out, "seller user sales@example.com disabled") {
		t.Errorf("disable printed %q", out)
	}
	list := string(tenureCLI(t, env, "sellers", "users", "list", id))
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 3 || !regexp.MustCompile(`^boss@example\.com\s+admin\s+invited\s`).MatchString(lines[1]) ||
		!regexp.MustCompile(`^sales@example\.com\s+agent\s+disabled\s`).MatchString(lines[2]) {
		t.Errorf("list printed:\n%s", list)
	}
}
