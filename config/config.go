// Package config loads Tenure's settings: built-in defaults, then an optional
// tenure.yaml, then TENURE_* environment variables, and validates them.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"
)

// Environment is the kind of deployment: one deployment is one environment.
type Environment string

const (
	// Sandbox mounts the scenario simulations and supports imported products automatically.
	Sandbox Environment = "sandbox"
	// Production categorises products by rules and reviews offers for risk.
	Production Environment = "production"
)

// Config is every setting Tenure reads at start-up.
type Config struct {
	Environment Environment   `mapstructure:"environment"`
	DataDir     string        `mapstructure:"data_dir"`
	HTTP        HTTPConfig    `mapstructure:"http"`
	Database    DatabaseCfg   `mapstructure:"database"`
	Temporal    TemporalCfg   `mapstructure:"temporal"`
	Auth        AuthConfig    `mapstructure:"auth"`
	Links       LinksConfig   `mapstructure:"links"`
	Webhooks    WebhooksCfg   `mapstructure:"webhooks"`
	Log         LogConfig     `mapstructure:"log"`
	Dev         DevConfig     `mapstructure:"dev"`
	Shutdown    time.Duration `mapstructure:"shutdown_timeout"`
}

// HTTPConfig configures the API server.
type HTTPConfig struct {
	Addr string `mapstructure:"addr"`
	// PublicURL is the address merchants reach the API at; links Tenure hands
	// out (upload URLs, checkout links) start with it.
	PublicURL string `mapstructure:"public_url"`
	BodyLimit int    `mapstructure:"body_limit"`
}

// DatabaseCfg configures the PostgreSQL pool.
type DatabaseCfg struct {
	URL      string `mapstructure:"url"`
	MaxConns int32  `mapstructure:"max_conns"`
}

// TemporalCfg says where the Temporal frontend is.
type TemporalCfg struct {
	Address   string `mapstructure:"address"`
	Namespace string `mapstructure:"namespace"`
}

// AuthConfig configures the seller access tokens.
type AuthConfig struct {
	SigningKey string        `mapstructure:"signing_key"`
	TokenTTL   time.Duration `mapstructure:"token_ttl"`
}

// LinksConfig configures the signed links Tenure hands out.
type LinksConfig struct {
	SigningKey string `mapstructure:"signing_key"`
}

// WebhooksCfg configures webhook endpoints and event delivery.
type WebhooksCfg struct {
	// SecretKey encrypts endpoint signing secrets at rest.
	SecretKey string `mapstructure:"secret_key"`
	// RetrySchedule is the delay before each attempt of a delivery; its
	// length is the number of attempts.
	RetrySchedule []time.Duration `mapstructure:"retry_schedule"`
	// AttemptTimeout bounds one HTTP attempt, response included.
	AttemptTimeout time.Duration `mapstructure:"attempt_timeout"`
	// RotationOverlap is how long a rotated-out secret keeps signing.
	RotationOverlap time.Duration `mapstructure:"rotation_overlap"`
	// RelayInterval is how often a worker looks for undispatched events.
	RelayInterval time.Duration `mapstructure:"relay_interval"`
	// RelayGrace is how old an undispatched event must be before the relay
	// takes it, leaving the committing process time to dispatch it itself.
	RelayGrace time.Duration `mapstructure:"relay_grace"`
	// MaxConcurrentAttempts bounds the HTTP attempts one worker runs at once.
	MaxConcurrentAttempts int `mapstructure:"max_concurrent_attempts"`
}

// StandardWebhooksSchedule is the retry schedule of the Standard Webhooks
// specification: ten attempts over about three days.
const StandardWebhooksSchedule = "0s,5s,5m,30m,2h,5h,10h,14h,20h,24h"

// LogConfig configures structured logging.
type LogConfig struct {
	Level  string `mapstructure:"level"`
	Format string `mapstructure:"format"`
}

// DevConfig configures `tenure dev` and the Temporal dev server it runs.
type DevConfig struct {
	TemporalPort int    `mapstructure:"temporal_port"`
	UIPort       int    `mapstructure:"ui_port"`
	TemporalCLI  string `mapstructure:"temporal_cli"`
}

// MinKeyLength is the shortest signing key accepted, in bytes.
const MinKeyLength = 32

var defaults = map[string]any{
	"environment":                      string(Sandbox),
	"data_dir":                         ".tenure",
	"http.addr":                        "127.0.0.1:8080",
	"http.public_url":                  "",
	"http.body_limit":                  8 << 20,
	"database.url":                     "postgres://postgres@127.0.0.1:5432/tenure?sslmode=disable",
	"database.max_conns":               20,
	"temporal.address":                 "127.0.0.1:7233",
	"temporal.namespace":               "default",
	"auth.signing_key":                 "",
	"auth.token_ttl":                   "2h",
	"links.signing_key":                "",
	"webhooks.secret_key":              "",
	"webhooks.retry_schedule":          StandardWebhooksSchedule,
	"webhooks.attempt_timeout":         "15s",
	"webhooks.rotation_overlap":        "24h",
	"webhooks.relay_interval":          "1s",
	"webhooks.relay_grace":             "5s",
	"webhooks.max_concurrent_attempts": 200,
	"log.level":                        "info",
	"log.format":                       "json",
	"dev.temporal_port":                7233,
	"dev.ui_port":                      8233,
	"dev.temporal_cli":                 "",
	"shutdown_timeout":                 "20s",
}

// Load reads the configuration. file is an explicit tenure.yaml path; when it
// is empty, ./tenure.yaml is read if it exists. Values from the environment
// win over the file, which wins over the defaults.
func Load(file string) (*Config, error) {
	v := viper.New()
	for k, d := range defaults {
		v.SetDefault(k, d)
	}
	v.SetEnvPrefix("TENURE")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()

	if file == "" {
		if _, err := os.Stat("tenure.yaml"); err == nil {
			file = "tenure.yaml"
		}
	}
	if file != "" {
		v.SetConfigFile(file)
		if err := v.ReadInConfig(); err != nil {
			return nil, fmt.Errorf("reading config file %s: %w", file, err)
		}
	}
	var c Config
	err := v.Unmarshal(&c, viper.DecodeHook(mapstructure.ComposeDecodeHookFunc(
		mapstructure.StringToWeakSliceHookFunc(","),
		mapstructure.StringToTimeDurationHookFunc(),
	)))
	if err != nil {
		return nil, fmt.Errorf("config: %s", describeDecodeError(err))
	}
	if c.HTTP.PublicURL == "" {
		c.HTTP.PublicURL = "http://" + c.HTTP.Addr
	}
	c.HTTP.PublicURL = strings.TrimRight(c.HTTP.PublicURL, "/")
	return &c, nil
}

// decodeProblem matches one line of mapstructure's decoding error, which
// quotes the key that failed.
var decodeProblem = regexp.MustCompile(`'([a-z_.]+)(\[\d+\])?'\s*(.*)`)

// describeDecodeError names each key that could not be read, with its
// variable and the kind of value it takes, without Go's parser vocabulary.
func describeDecodeError(err error) string {
	var problems []string
	for _, line := range strings.Split(err.Error(), "\n") {
		m := decodeProblem.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		want := "a value of the right kind"
		switch problem := m[3]; {
		case strings.Contains(problem, "'int'") || strings.Contains(problem, "'uint'"):
			want = "a whole number"
		case strings.Contains(problem, "'bool'"):
			want = "true or false"
		case strings.Contains(problem, "duration") && m[2] != "":
			want = "a comma-separated list of durations such as 0s,5s,5m"
		case strings.Contains(problem, "duration"):
			want = "a duration such as 30s or 2h"
		}
		problems = append(problems, fmt.Sprintf("%s (%s): must be %s", m[1], EnvName(m[1]), want))
	}
	if len(problems) == 0 {
		return err.Error()
	}
	return strings.Join(problems, "; ")
}

// EnvName is the environment variable that sets a configuration key.
func EnvName(key string) string {
	return "TENURE_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// Need says which parts of the configuration a command uses; only those are
// validated, so `tenure migrate` does not ask for token keys.
type Need int

const (
	// NeedDatabase validates the database settings.
	NeedDatabase Need = 1 << iota
	// NeedTemporal validates the Temporal settings.
	NeedTemporal
	// NeedHTTP validates the HTTP server settings and the signing keys it uses.
	NeedHTTP
	// NeedDev validates the settings of `tenure dev`.
	NeedDev
	// NeedWebhooks validates the webhook settings (API, worker, set-webhook).
	NeedWebhooks
)

// Validate checks the parts of the configuration a command needs and
// returns every problem at once, each naming its key and variable.
func (c *Config) Validate(need Need) error {
	var problems []string
	bad := func(key, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s (%s): %s", key, EnvName(key), fmt.Sprintf(format, args...)))
	}

	if c.Environment != Sandbox && c.Environment != Production {
		bad("environment", "must be %q or %q, got %q", Sandbox, Production, c.Environment)
	}
	if c.DataDir == "" {
		bad("data_dir", "must not be empty")
	}
	if c.Shutdown <= 0 {
		bad("shutdown_timeout", "must be a positive duration such as 20s")
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "must be debug, info, warn or error, got %q", c.Log.Level)
	}
	if c.Log.Format != "json" && c.Log.Format != "text" {
		bad("log.format", "must be json or text, got %q", c.Log.Format)
	}
	if need&NeedDatabase != 0 {
		if u, err := url.Parse(c.Database.URL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			bad("database.url", "must be a postgres:// URL such as postgres://postgres@127.0.0.1:5432/tenure?sslmode=disable")
		} else if strings.TrimPrefix(u.Path, "/") == "" {
			bad("database.url", "must name a database, as in postgres://host:5432/tenure")
		}
		if c.Database.MaxConns < 2 {
			bad("database.max_conns", "must be at least 2, got %d", c.Database.MaxConns)
		}
	}
	if need&NeedTemporal != 0 {
		if _, _, err := net.SplitHostPort(c.Temporal.Address); err != nil {
			bad("temporal.address", "must be host:port, got %q", c.Temporal.Address)
		}
		if c.Temporal.Namespace == "" {
			bad("temporal.namespace", "must not be empty")
		}
	}
	if need&NeedHTTP != 0 {
		if _, _, err := net.SplitHostPort(c.HTTP.Addr); err != nil {
			bad("http.addr", "must be host:port, got %q", c.HTTP.Addr)
		}
		if u, err := url.Parse(c.HTTP.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("http.public_url", "must be an absolute http(s) URL, got %q", c.HTTP.PublicURL)
		}
		if c.HTTP.BodyLimit < 1024 {
			bad("http.body_limit", "must be at least 1024 bytes, got %d", c.HTTP.BodyLimit)
		}
		if len(c.Auth.SigningKey) < MinKeyLength {
			bad("auth.signing_key", "must be a secret of at least %d bytes (generate one with `openssl rand -hex 32`)", MinKeyLength)
		}
		if c.Auth.TokenTTL < time.Minute {
			bad("auth.token_ttl", "must be at least 1m, got %s", c.Auth.TokenTTL)
		}
		if len(c.Links.SigningKey) < MinKeyLength {
			bad("links.signing_key", "must be a secret of at least %d bytes (generate one with `openssl rand -hex 32`)", MinKeyLength)
		}
	}
	if need&NeedWebhooks != 0 {
		c.validateWebhooks(bad)
	}
	if need&NeedDev != 0 {
		for key, port := range map[string]int{"dev.temporal_port": c.Dev.TemporalPort, "dev.ui_port": c.Dev.UIPort} {
			if port < 1 || port > 65535 {
				bad(key, "must be a TCP port between 1 and 65535, got %d", port)
			}
		}
		if c.Dev.TemporalPort == c.Dev.UIPort {
			bad("dev.ui_port", "must differ from dev.temporal_port (both are %d)", c.Dev.UIPort)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return errors.New("invalid configuration:\n  " + strings.Join(problems, "\n  "))
}

// maxRetryAttempts bounds the retry schedule, and so a delivery's history.
const maxRetryAttempts = 50

func (c *Config) validateWebhooks(bad func(key, format string, args ...any)) {
	w := c.Webhooks
	if len(w.SecretKey) < MinKeyLength {
		bad("webhooks.secret_key", "must be a secret of at least %d bytes (generate one with `openssl rand -hex 32`)", MinKeyLength)
	}
	if len(w.RetrySchedule) == 0 || len(w.RetrySchedule) > maxRetryAttempts {
		bad("webhooks.retry_schedule", "must list 1 to %d comma-separated delays such as %s", maxRetryAttempts, StandardWebhooksSchedule)
	}
	for _, d := range w.RetrySchedule {
		if d < 0 {
			bad("webhooks.retry_schedule", "delays must not be negative, got %s", d)
			break
		}
	}
	if w.AttemptTimeout < 100*time.Millisecond || w.AttemptTimeout > 5*time.Minute {
		bad("webhooks.attempt_timeout", "must be between 100ms and 5m, got %s", w.AttemptTimeout)
	}
	if w.RotationOverlap < 0 || w.RotationOverlap > 30*24*time.Hour {
		bad("webhooks.rotation_overlap", "must be between 0s and 720h, got %s", w.RotationOverlap)
	}
	if w.RelayInterval < 10*time.Millisecond {
		bad("webhooks.relay_interval", "must be at least 10ms, got %s", w.RelayInterval)
	}
	if w.RelayGrace < 0 {
		bad("webhooks.relay_grace", "must not be negative, got %s", w.RelayGrace)
	}
	if w.MaxConcurrentAttempts < 1 {
		bad("webhooks.max_concurrent_attempts", "must be at least 1, got %d", w.MaxConcurrentAttempts)
	}
}
