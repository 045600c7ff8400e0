package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestOperatorsCommands(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL, "TENURE_DATA_DIR="+t.TempDir())

	// Without console.totp_keys, and no `tenure dev` data directory to
	// take them from, nothing is created.
	out, err := tenureCLIFails(t, env, "operators", "create", "ops@example.com", "--role", "admin")
	if err == nil || !strings.Contains(out, "console.totp_keys (TENURE_CONSOLE_TOTP_KEYS): must list at least one key") {
		t.Errorf("create without keys: %v %s", err, out)
	}
	env = append(env, "TENURE_CONSOLE_TOTP_KEYS="+testenv.TestTOTPKey)

	created := string(tenureCLI(t, env, "operators", "create", "Ops@Example.com", "--role", "admin"))
	if !strings.Contains(created, "operator ops@example.com (admin) created") ||
		!regexp.MustCompile(`(?m)^password: [A-Z2-7]{26}$`).MatchString(created) ||
		!regexp.MustCompile(`(?m)^TOTP: otpauth://totp/Tenure:ops@example\.com\?.*secret=[A-Z2-7]+`).MatchString(created) {
		t.Errorf("create printed:\n%s", created)
	}
	if out, err := tenureCLIFails(t, env, "operators", "create", "ops@example.com", "--role", "reviewer"); err == nil || !strings.Contains(out, "an account with this e-mail address exists") {
		t.Errorf("a second account with the address: %v %s", err, out)
	}
	if out, err := tenureCLIFails(t, env, "operators", "create", "x@example.com", "--role", "owner"); err == nil || !strings.Contains(out, `"owner" is not an operator role`) {
		t.Errorf("an unknown role: %v %s", err, out)
	}

	// A password from standard input is taken and not printed.
	bin, err := buildTenure()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "operators", "create", "reviewer@example.com", "--role", "reviewer", "--password-stdin")
	cmd.Env, cmd.Stdin = env, strings.NewReader("a password of my own\n")
	piped, err := cmd.Output()
	if err != nil || strings.Contains(string(piped), "password:") || !strings.Contains(string(piped), "TOTP: otpauth://") {
		t.Errorf("create --password-stdin: %v\n%s", err, piped)
	}
	cmd = exec.Command(bin, "operators", "create", "short@example.com", "--role", "reviewer", "--password-stdin")
	cmd.Env, cmd.Stdin = env, strings.NewReader("too short\n")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "a password needs at least 12 characters") {
		t.Errorf("a short password: %v %s", err, out)
	}

	if out, err := tenureCLIFails(t, env, "operators", "disable", "nobody@example.com"); err == nil || !strings.Contains(out, "no account with this e-mail address") {
		t.Errorf("disabling an unknown operator: %v %s", err, out)
	}
	if out := string(tenureCLI(t, env, "operators", "disable", "reviewer@example.com")); !strings.Contains(out, "operator reviewer@example.com disabled") {
		t.Errorf("disable printed %q", out)
	}
	list := string(tenureCLI(t, env, "operators", "list"))
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "ops@example.com") || !strings.Contains(lines[1], "admin") ||
		!strings.HasSuffix(lines[1], "-") || !strings.HasPrefix(lines[2], "reviewer@example.com") || strings.HasSuffix(lines[2], "-") {
		t.Errorf("list printed:\n%s", list)
	}
}
