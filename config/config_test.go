package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLoadDefaults(t *testing.T) {
	t.Chdir(t.TempDir())
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if c.Environment != Sandbox || c.HTTP.Addr != "127.0.0.1:8080" || c.DataDir != ".tenure" {
		t.Errorf("unexpected defaults: %+v", c)
	}
	if c.HTTP.PublicURL != "http://127.0.0.1:8080" {
		t.Errorf("public URL defaults to the listen address, got %q", c.HTTP.PublicURL)
	}
	if c.Auth.TokenTTL != 2*time.Hour || c.Dev.TemporalPort != 7233 || c.Dev.UIPort != 8233 {
		t.Errorf("unexpected defaults: %+v", c)
	}
	if !strings.HasPrefix(c.Database.URL, "postgres://postgres@127.0.0.1:5432/tenure") {
		t.Errorf("unexpected database default %q", c.Database.URL)
	}
}

func TestLoadFileThenEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := filepath.Join(dir, "tenure.yaml")
	if err := os.WriteFile(file, []byte("environment: production\nhttp:\n  addr: 127.0.0.1:9000\n  public_url: https://api.example.com/\ndev:\n  ui_port: 9233\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TENURE_HTTP_ADDR", "127.0.0.1:9100")
	t.Setenv("TENURE_DEV_TEMPORAL_PORT", "9333")
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if c.Environment != Production {
		t.Errorf("the file sets the environment, got %q", c.Environment)
	}
	if c.HTTP.Addr != "127.0.0.1:9100" {
		t.Errorf("the environment wins over the file, got %q", c.HTTP.Addr)
	}
	if c.HTTP.PublicURL != "https://api.example.com" {
		t.Errorf("public URL loses its trailing slash, got %q", c.HTTP.PublicURL)
	}
	if c.Dev.UIPort != 9233 || c.Dev.TemporalPort != 9333 {
		t.Errorf("dev ports from file and env: %+v", c.Dev)
	}
}

func TestLoadRefusesMistypedValues(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("TENURE_DEV_UI_PORT", "eighty")
	_, err := Load("")
	if err == nil || !strings.Contains(err.Error(), "ui_port") {
		t.Fatalf("want an error naming ui_port, got %v", err)
	}
}

func TestLoadExplicitFileMissing(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("want an error naming the file, got %v", err)
	}
}

func validConfig(t *testing.T) *Config {
	t.Chdir(t.TempDir())
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	c.Auth.SigningKey = strings.Repeat("k", MinKeyLength)
	c.Links.SigningKey = strings.Repeat("l", MinKeyLength)
	c.Webhooks.SecretKey = strings.Repeat("w", MinKeyLength)
	return c
}

func TestValidateAcceptsDefaultsWithKeys(t *testing.T) {
	c := validConfig(t)
	if err := c.Validate(NeedDatabase | NeedTemporal | NeedHTTP | NeedDev | NeedWebhooks); err != nil {
		t.Fatal(err)
	}
}

func TestWebhookDefaultsAreTheStandardSchedule(t *testing.T) {
	t.Chdir(t.TempDir())
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{0, 5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
		5 * time.Hour, 10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour}
	if !slices.Equal(c.Webhooks.RetrySchedule, want) {
		t.Errorf("retry schedule %v, want %v", c.Webhooks.RetrySchedule, want)
	}
	if c.Webhooks.AttemptTimeout != 15*time.Second || c.Webhooks.RotationOverlap != 24*time.Hour {
		t.Errorf("unexpected webhook defaults: %+v", c.Webhooks)
	}
}

func TestWebhookScheduleFromEnvironment(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("TENURE_WEBHOOKS_RETRY_SCHEDULE", "0s,100ms,1s")
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{0, 100 * time.Millisecond, time.Second}; !slices.Equal(c.Webhooks.RetrySchedule, want) {
		t.Errorf("got %v, want %v", c.Webhooks.RetrySchedule, want)
	}
	t.Setenv("TENURE_WEBHOOKS_RETRY_SCHEDULE", "0s,soon")
	if _, err := Load(""); err == nil || !strings.Contains(err.Error(), "TENURE_WEBHOOKS_RETRY_SCHEDULE") {
		t.Errorf("a bad delay names the variable, got %v", err)
	}
}

func TestValidateWebhooks(t *testing.T) {
	c := validConfig(t)
	c.Webhooks.SecretKey = "short"
	c.Webhooks.RetrySchedule = nil
	c.Webhooks.AttemptTimeout = 0
	err := c.Validate(NeedWebhooks)
	for _, want := range []string{"webhooks.secret_key (TENURE_WEBHOOKS_SECRET_KEY)", "webhooks.retry_schedule", "webhooks.attempt_timeout"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s: %v", want, err)
		}
	}
	if err := c.Validate(NeedDatabase); err != nil {
		t.Errorf("migrations need no webhook key: %v", err)
	}
}

func TestValidateNamesEveryBadKey(t *testing.T) {
	c := validConfig(t)
	c.Environment = "prod"
	c.Database.URL = "mysql://x"
	c.Temporal.Address = "nohostport"
	c.Auth.SigningKey = "short"
	c.Dev.UIPort = c.Dev.TemporalPort
	err := c.Validate(NeedDatabase | NeedTemporal | NeedHTTP | NeedDev)
	if err == nil {
		t.Fatal("want an error")
	}
	for _, want := range []string{
		"environment (TENURE_ENVIRONMENT)",
		"database.url (TENURE_DATABASE_URL)",
		"temporal.address (TENURE_TEMPORAL_ADDRESS)",
		"auth.signing_key (TENURE_AUTH_SIGNING_KEY)",
		"dev.ui_port (TENURE_DEV_UI_PORT)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s:\n%v", want, err)
		}
	}
}

func TestValidateOnlyWhatIsNeeded(t *testing.T) {
	c := validConfig(t)
	c.Auth.SigningKey = ""
	if err := c.Validate(NeedDatabase); err != nil {
		t.Errorf("migrations need no signing key: %v", err)
	}
	if err := c.Validate(NeedHTTP); err == nil {
		t.Error("the HTTP server needs a signing key")
	}
}

func TestEnvName(t *testing.T) {
	if got := EnvName("dev.temporal_port"); got != "TENURE_DEV_TEMPORAL_PORT" {
		t.Errorf("got %s", got)
	}
}

func TestTemporalAddressGivenByTheFileOrTheEnvironmentOnly(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("TENURE_TEMPORAL_ADDRESS", "")
	if c, err := Load(""); err != nil || c.Temporal.AddressGiven || c.Temporal.Address != "127.0.0.1:7233" {
		t.Errorf("the default counts as given: %+v %v", c.Temporal, err)
	}
	file := filepath.Join(dir, "tenure.yaml")
	if err := os.WriteFile(file, []byte("temporal:\n  namespace: tenure\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(file); err != nil || c.Temporal.AddressGiven {
		t.Errorf("a file without the address gives it: %+v %v", c.Temporal, err)
	}
	if err := os.WriteFile(file, []byte("temporal:\n  address: temporal.internal:7233\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(file); err != nil || !c.Temporal.AddressGiven {
		t.Errorf("the file's address is not given: %+v %v", c.Temporal, err)
	}
	t.Setenv("TENURE_TEMPORAL_ADDRESS", "127.0.0.1:7234")
	if c, err := Load(""); err != nil || !c.Temporal.AddressGiven || c.Temporal.Address != "127.0.0.1:7234" {
		t.Errorf("the environment's address is not given: %+v %v", c.Temporal, err)
	}
}
