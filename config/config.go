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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"

	"github.com/tenurehq/tenure/domain/pricing"
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
	Environment Environment     `mapstructure:"environment"`
	DataDir     string          `mapstructure:"data_dir"`
	HTTP        HTTPConfig      `mapstructure:"http"`
	Database    DatabaseConfig  `mapstructure:"database"`
	Temporal    TemporalConfig  `mapstructure:"temporal"`
	Auth        AuthConfig      `mapstructure:"auth"`
	Links       LinksConfig     `mapstructure:"links"`
	Webhooks    WebhooksConfig  `mapstructure:"webhooks"`
	Log         LogConfig       `mapstructure:"log"`
	Dev         DevConfig       `mapstructure:"dev"`
	Shutdown    time.Duration   `mapstructure:"shutdown_timeout"`
	Pricing     PricingConfig   `mapstructure:"pricing"`
	Catalog     CatalogConfig   `mapstructure:"catalog"`
	Risk        RiskConfig      `mapstructure:"risk"`
	RateLimit   RateLimitConfig `mapstructure:"ratelimit"`
	// Idempotency is read by the API only.
	Idempotency IdempotencyConfig `mapstructure:"idempotency"`
	Sellers     SellersConfig     `mapstructure:"sellers"`
	Terms       TermsConfig       `mapstructure:"terms"`
	IDV         IDVConfig         `mapstructure:"idv"`
	Checkout    CheckoutConfig    `mapstructure:"checkout"`
	Contracts   ContractsConfig   `mapstructure:"contracts"`
	Invoicing   InvoicingConfig   `mapstructure:"invoicing"`
	Payouts     PayoutsConfig     `mapstructure:"payouts"`
	// Creditors are the contractual entities as creditors of SEPA direct
	// debits, by entity id (see Creditor).
	Creditors   map[string]Creditor `mapstructure:"creditors"`
	Mandates    MandatesConfig      `mapstructure:"mandates"`
	Collections CollectionsConfig   `mapstructure:"collections"`
	Console     ConsoleConfig       `mapstructure:"console"`
}

// HTTPConfig configures the API server.
type HTTPConfig struct {
	Addr string `mapstructure:"addr"`
	// PublicURL is the address merchants reach the API at; links Tenure hands
	// out (upload URLs, checkout links) start with it.
	PublicURL string `mapstructure:"public_url"`
	BodyLimit int    `mapstructure:"body_limit"`
	// TrustedProxies are the addresses or CIDR prefixes of the proxies in
	// front of the API, whose X-Forwarded-For names the client address
	// the per-address limits count.
	TrustedProxies []string `mapstructure:"trusted_proxies"`
	// AdminAddr is where the admin listener (metrics, health checks)
	// listens; empty for none. `tenure dev` listens on DevAdminAddr
	// unless the file or the environment gives it.
	AdminAddr string `mapstructure:"admin_addr"`
	// AdminAddrGiven is set when the file or the environment gives
	// admin_addr, even as empty.
	AdminAddrGiven bool `mapstructure:"-"`
}

// DevAdminAddr is the admin listener of `tenure dev` unless configured.
const DevAdminAddr = "127.0.0.1:9090"

// DatabaseConfig configures the PostgreSQL pool.
type DatabaseConfig struct {
	URL      string `mapstructure:"url"`
	MaxConns int32  `mapstructure:"max_conns"`
}

// TemporalConfig says where the Temporal frontend is.
type TemporalConfig struct {
	Address   string `mapstructure:"address"`
	Namespace string `mapstructure:"namespace"`
	// WorkflowCacheSize bounds the workflows a worker process keeps in
	// memory between their tasks (Temporal's sticky cache, shared by its
	// queues): a workflow evicted replays its history when it wakes, so
	// thousands of sleeping contracts cost no memory beyond it.
	WorkflowCacheSize int `mapstructure:"workflow_cache_size"`
	// Compression is how requests to the frontend are compressed: none,
	// or gzip, which trades CPU on both ends (an eighth of a worker's, at
	// full load) for bandwidth, worth it only across a slow link such as
	// one to a cloud service.
	Compression string `mapstructure:"compression"`
	// AddressGiven is set when the file or the environment gives the
	// address; otherwise commands prefer the dev server `tenure dev` runs
	// for the same data directory.
	AddressGiven bool `mapstructure:"-"`
}

// AuthConfig configures the access tokens.
type AuthConfig struct {
	SigningKey string        `mapstructure:"signing_key"`
	TokenTTL   time.Duration `mapstructure:"token_ttl"`
	// CustomerTokenTTL is the lifetime of an offer-scoped customer token
	// (never beyond its offer's expiry).
	CustomerTokenTTL time.Duration `mapstructure:"customer_token_ttl"`
}

// LinksConfig configures the signed links Tenure hands out.
type LinksConfig struct {
	SigningKey string `mapstructure:"signing_key"`
}

// WebhooksConfig configures webhook endpoints and event delivery.
type WebhooksConfig struct {
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
	// AllowPrivateAddresses lets production call endpoints on loopback and
	// private addresses, as the sandbox always may: for deployments whose
	// merchants sit in the same private network, and for tests.
	AllowPrivateAddresses bool `mapstructure:"allow_private_addresses"`
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

// PricingConfig configures rental prices; see package pricing for how they
// are computed.
type PricingConfig struct {
	// Durations are the offered rent terms in months.
	Durations []int `mapstructure:"durations"`
	// DefaultDuration is the term recommended first.
	DefaultDuration int `mapstructure:"default_duration"`
	// MinRentBasis is the smallest basis (net, minor units) offered for
	// rent; cheaper products are pay-now only.
	MinRentBasis int64 `mapstructure:"min_rent_basis"`
	// DefaultCategory prices products whose pricing category has no rates.
	DefaultCategory string `mapstructure:"default_category"`
	// Rates are monthly rates in basis points of the basis, by pricing
	// category and term in months (pricing.rates.hardware.36).
	Rates map[string]map[string]int64 `mapstructure:"rates"`
	// Services are the first-party services by pricing category and type
	// (pricing.services.hardware.service_replace.monthly_net).
	Services map[string]map[string]ServiceConfig `mapstructure:"services"`
}

// NewEngine builds the pricing engine of this configuration.
func (p PricingConfig) NewEngine() (*pricing.Engine, error) {
	engineConfig, problems := p.Engine()
	if len(problems) > 0 {
		return nil, fmt.Errorf("pricing configuration: %s: %s", problems[0].Key, problems[0].Message)
	}
	return pricing.New(engineConfig)
}

// Engine is the pricing configuration in the engine's terms; a term key
// that is not a number of months becomes a problem Validate reports.
func (p PricingConfig) Engine() (pricing.Config, []pricing.Problem) {
	var problems []pricing.Problem
	rates := make(map[string]map[int]int64, len(p.Rates))
	for category, byTerm := range p.Rates {
		rates[category] = make(map[int]int64, len(byTerm))
		for term, rate := range byTerm {
			months, err := strconv.Atoi(term)
			if err != nil {
				problems = append(problems, pricing.Problem{Key: "rates." + category + "." + term, Message: "the last part must be a number of months"})
				continue
			}
			rates[category][months] = rate
		}
	}
	return pricing.Config{
		Durations:       p.Durations,
		DefaultDuration: p.DefaultDuration,
		MinRentBasis:    p.MinRentBasis,
		Rates:           rates,
		DefaultCategory: p.DefaultCategory,
		Services:        p.engineServices(),
	}, problems
}

// CatalogConfig configures how imported products become supported.
type CatalogConfig struct {
	// SandboxSupportLimit is how many products of a sandbox seller are
	// supported automatically; later ones are imported unsupported.
	SandboxSupportLimit int `mapstructure:"sandbox_support_limit"`
	// Rules categorise products in production.
	Rules CatalogRules `mapstructure:"rules"`
	// Imports configures the CSV import jobs.
	Imports CSVImportsConfig `mapstructure:"imports"`
}

// CSVImportsConfig configures the CSV import jobs.
type CSVImportsConfig struct {
	// BlobURL is the gocloud.dev bucket uploaded files and error reports
	// are kept in (file:///var/lib/tenure/blobs, s3://bucket?region=...);
	// empty means the blobs directory under data_dir.
	BlobURL string `mapstructure:"blob_url"`
	// UploadTTL is how long an upload link works; a job whose file has not
	// come by then fails.
	UploadTTL time.Duration `mapstructure:"upload_ttl"`
	// ErrorsLinkTTL is how long a link to a job's error report works.
	ErrorsLinkTTL time.Duration `mapstructure:"errors_link_ttl"`
	// MaxActive is how many imports of a seller may be pending, queued or
	// running at once.
	MaxActive int `mapstructure:"max_active"`
	// ChunkRows is how many rows one transaction stores.
	ChunkRows int `mapstructure:"chunk_rows"`
}

// CatalogRules decide, in production, whether an imported product is
// supported, unsupported or to be reviewed.
type CatalogRules struct {
	// SupportedProductTypes are supported when no other rule objects.
	SupportedProductTypes []string `mapstructure:"supported_product_types"`
	// ReviewProductTypes (and products without a type) are to be reviewed.
	ReviewProductTypes []string `mapstructure:"review_product_types"`
	// MinNetPrice: cheaper products are unsupported (minor units).
	MinNetPrice int64 `mapstructure:"min_net_price"`
	// MaxNetPrice: dearer products are to be reviewed (minor units).
	MaxNetPrice int64 `mapstructure:"max_net_price"`
	// DeniedCategories: products in one of these seller categories (id or
	// name, case-insensitive) are unsupported.
	DeniedCategories []string `mapstructure:"denied_categories"`
	// AllowedCategories, when not empty: products in none of them are to
	// be reviewed.
	AllowedCategories []string `mapstructure:"allowed_categories"`
}

// ProductTypes are the seller product types of the contract.
var ProductTypes = []string{"hardware", "software", "service", "hardware_built_to_order"}

// MinKeyLength is the shortest signing key accepted, in bytes.
const MinKeyLength = 32

var defaults = map[string]any{
	"environment":                      string(Sandbox),
	"data_dir":                         ".tenure",
	"http.addr":                        "127.0.0.1:8080",
	"http.public_url":                  "",
	"http.body_limit":                  8 << 20,
	"http.admin_addr":                  "",
	"database.url":                     "postgres://postgres@127.0.0.1:5432/tenure?sslmode=disable",
	"database.max_conns":               20,
	"temporal.address":                 "127.0.0.1:7233",
	"temporal.namespace":               "default",
	"temporal.workflow_cache_size":     2000,
	"temporal.compression":             "none",
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
	"webhooks.allow_private_addresses": false,
	"log.level":                        "info",
	"log.format":                       "json",
	"dev.temporal_port":                7233,
	"dev.ui_port":                      8233,
	"dev.temporal_cli":                 "",
	"shutdown_timeout":                 "20s",

	"pricing.durations":        pricing.DefaultDurations,
	"pricing.default_duration": 36,
	"pricing.min_rent_basis":   10000,
	"pricing.default_category": "hardware",
	// Monthly rates in basis points of the basis; 6 months is priced so
	// that adding it to pricing.durations is enough to offer it.
	"pricing.rates.hardware.6":                 1800,
	"pricing.rates.hardware.12":                950,
	"pricing.rates.hardware.24":                500,
	"pricing.rates.hardware.36":                350,
	"pricing.rates.hardware_built_to_order.6":  1850,
	"pricing.rates.hardware_built_to_order.12": 980,
	"pricing.rates.hardware_built_to_order.24": 520,
	"pricing.rates.hardware_built_to_order.36": 370,
	"pricing.rates.software.6":                 1900,
	"pricing.rates.software.12":                1000,
	"pricing.rates.software.24":                540,
	"pricing.rates.software.36":                380,
	"pricing.rates.service.6":                  1900,
	"pricing.rates.service.12":                 1000,
	"pricing.rates.service.24":                 540,
	"pricing.rates.service.36":                 380,

	"catalog.sandbox_support_limit":         10000,
	"catalog.rules.supported_product_types": []string{"hardware", "hardware_built_to_order"},
	"catalog.rules.review_product_types":    []string{"software", "service"},
	"catalog.rules.min_net_price":           5000,
	"catalog.rules.max_net_price":           2500000,
	"catalog.rules.denied_categories":       []string{},
	"catalog.rules.allowed_categories":      []string{},
	"catalog.imports.blob_url":              "",
	"catalog.imports.upload_ttl":            "1h",
	"catalog.imports.errors_link_ttl":       "24h",
	"catalog.imports.max_active":            5,
	"catalog.imports.chunk_rows":            4000,
}

// Load reads the configuration. file is an explicit tenure.yaml path; when it
// is empty, ./tenure.yaml is read if it exists. Values from the environment
// win over the file, which wins over the defaults.
func Load(file string) (*Config, error) {
	v := viper.New()
	for _, set := range []map[string]any{defaults, riskDefaults, rateLimitDefaults, idempotencyDefaults, customerDefaults, serviceDefaults, idvDefaults, checkoutDefaults, contractDefaults, collectionDefaults, invoicingDefaults, payoutDefaults, creditorDefaults, consoleDefaults} {
		for k, d := range set {
			v.SetDefault(k, d)
		}
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
		mapstructure.StringToTimeDurationHookFunc(),
		mapstructure.StringToWeakSliceHookFunc(","),
	)))
	if err != nil {
		return nil, fmt.Errorf("config: %s", describeDecodeError(err))
	}
	c.Temporal.AddressGiven = v.InConfig("temporal.address") || os.Getenv(EnvName("temporal.address")) != ""
	_, adminInEnv := os.LookupEnv(EnvName("http.admin_addr"))
	c.HTTP.AdminAddrGiven = v.InConfig("http.admin_addr") || adminInEnv
	if c.HTTP.PublicURL == "" {
		c.HTTP.PublicURL = "http://" + c.HTTP.Addr
	}
	c.HTTP.PublicURL = strings.TrimRight(c.HTTP.PublicURL, "/")
	return &c, nil
}

// decodeProblem matches one line of mapstructure's decoding error, which
// quotes the key that failed: map keys in brackets
// (pricing.services[hardware][service_replace].monthly_net), or an index
// for a list element (pricing.durations[1]).
var decodeProblem = regexp.MustCompile(`'([a-z0-9_.]+(?:\[[^\]']+\][a-z0-9_.]*)*)'\s*(.*)`)

// listElement is a key whose only bracket is a list index.
var listElement = regexp.MustCompile(`^([a-z0-9_.]+)\[\d+\]$`)

// describeDecodeError names each key that could not be read, with its
// variable and the kind of value it takes, without Go's parser vocabulary.
func describeDecodeError(err error) string {
	var problems []string
	for _, line := range strings.Split(err.Error(), "\n") {
		m := decodeProblem.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		key := strings.NewReplacer("[", ".", "]", "").Replace(m[1])
		element := listElement.FindStringSubmatch(m[1])
		if element != nil {
			key = element[1]
		}
		want := "a value of the right kind"
		switch problem := m[2]; {
		case strings.Contains(problem, "'int") || strings.Contains(problem, "'uint"):
			want = "a whole number"
		case strings.Contains(problem, "'bool'"):
			want = "true or false"
		case strings.Contains(problem, "float"):
			want = "a number"
		case strings.Contains(problem, "duration") && element != nil:
			want = "a comma-separated list of durations such as 0s,5s,5m"
		case strings.Contains(problem, "duration"):
			want = "a duration such as 30s or 2h"
		}
		problems = append(problems, fmt.Sprintf("%s (%s): must be %s", key, EnvName(key), want))
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
	// NeedMandates validates what taking and collecting SEPA mandates
	// needs: a creditor per contractual entity and the IBAN keys.
	NeedMandates
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
	engine, rateKeys := c.Pricing.Engine()
	for _, p := range append(rateKeys, engine.Problems()...) {
		bad("pricing."+p.Key, "%s", p.Message)
	}
	c.validateCatalog(bad)
	c.validateRisk(bad)
	c.validateIDV(bad)
	c.validateContracts(bad)
	c.validateCollections(bad)
	c.validateInvoicing(bad)
	c.validatePayouts(bad)
	c.validateCreditors(bad)
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
		if c.Temporal.WorkflowCacheSize < 1 || c.Temporal.WorkflowCacheSize > 100000 {
			bad("temporal.workflow_cache_size", "must be between 1 and 100000 workflows, got %d", c.Temporal.WorkflowCacheSize)
		}
		if c.Temporal.Compression != "none" && c.Temporal.Compression != "gzip" {
			bad("temporal.compression", "must be none or gzip, got %q", c.Temporal.Compression)
		}
	}
	if c.HTTP.AdminAddr != "" {
		if _, _, err := net.SplitHostPort(c.HTTP.AdminAddr); err != nil {
			bad("http.admin_addr", "must be host:port or empty (no admin listener), got %q", c.HTTP.AdminAddr)
		} else if need&NeedHTTP != 0 && c.HTTP.AdminAddr == c.HTTP.Addr {
			bad("http.admin_addr", "must differ from http.addr (%s): metrics are never served on the public listener", c.HTTP.Addr)
		}
	}
	if need&NeedHTTP != 0 {
		c.validateConsole(bad)
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
		c.validateRateLimits(bad)
		c.validateIdempotency(bad)
		c.validateCustomer(bad)
		c.validateCheckout(bad)
	}
	if need&NeedWebhooks != 0 {
		c.validateWebhooks(bad)
	}
	if need&NeedMandates != 0 {
		c.validateMandates(bad)
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

// validateCatalog checks the support settings: product types of the
// contract, sane price bounds.
func (c *Config) validateCatalog(bad func(key, format string, args ...any)) {
	im := c.Catalog.Imports
	if im.UploadTTL <= 0 {
		bad("catalog.imports.upload_ttl", "must be a positive duration such as 1h")
	}
	if im.ErrorsLinkTTL <= 0 {
		bad("catalog.imports.errors_link_ttl", "must be a positive duration such as 24h")
	}
	if im.MaxActive < 1 {
		bad("catalog.imports.max_active", "must be at least 1, got %d", im.MaxActive)
	}
	if im.ChunkRows < 1 || im.ChunkRows > 50000 {
		bad("catalog.imports.chunk_rows", "must be between 1 and 50000, got %d", im.ChunkRows)
	}
	if c.Catalog.SandboxSupportLimit < 0 {
		bad("catalog.sandbox_support_limit", "must not be negative, got %d", c.Catalog.SandboxSupportLimit)
	}
	r := c.Catalog.Rules
	for key, types := range map[string][]string{
		"catalog.rules.supported_product_types": r.SupportedProductTypes,
		"catalog.rules.review_product_types":    r.ReviewProductTypes,
	} {
		for _, t := range types {
			if !slices.Contains(ProductTypes, t) {
				bad(key, "%q is not a product type; use %s", t, strings.Join(ProductTypes, ", "))
			}
		}
	}
	for _, t := range r.SupportedProductTypes {
		if slices.Contains(r.ReviewProductTypes, t) {
			bad("catalog.rules.review_product_types", "%q is also a supported product type", t)
		}
	}
	if r.MinNetPrice < 0 {
		bad("catalog.rules.min_net_price", "must not be negative, got %d", r.MinNetPrice)
	}
	if r.MaxNetPrice < r.MinNetPrice {
		bad("catalog.rules.max_net_price", "must be at least catalog.rules.min_net_price (%d), got %d", r.MinNetPrice, r.MaxNetPrice)
	}
}
