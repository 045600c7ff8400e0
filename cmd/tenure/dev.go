package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"
	"golang.org/x/sync/errgroup"

	"github.com/tenurehq/tenure/cmd/tenure/temporalcli"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/foundation/keyring"
	"github.com/tenurehq/tenure/workflows/searchattr"
)

func devCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "dev",
		Short: "Run everything on this machine: Temporal dev server and UI, migrations, API, worker, a sandbox seller",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := devConfig(file())
			if err != nil {
				return err
			}
			return runDev(cmd.Context(), cfg, newLogger(cfg), cmd.OutOrStdout())
		},
	}
}

// devSecrets are the signing keys `tenure dev` generates once and keeps in
// its data directory, so tokens and links survive restarts.
type devSecrets struct {
	AuthSigningKey    string `json:"auth_signing_key"`
	LinksSigningKey   string `json:"links_signing_key"`
	WebhooksSecretKey string `json:"webhooks_secret_key"`
	// MandatesIBANKey seals the debtors' IBANs, in the key ring's
	// "id:base64" form.
	MandatesIBANKey string `json:"mandates_iban_key"`
	// ConsoleTOTPKey seals the console accounts' TOTP secrets, in the same
	// form.
	ConsoleTOTPKey string `json:"console_totp_key"`
}

// devConfig loads the configuration and completes it for one machine: the
// keys nobody configured come from the data directory, and the worker talks
// to the dev server this command starts.
func devConfig(file string) (*config.Config, error) {
	cfg, err := config.Load(file)
	if err != nil {
		return nil, err
	}
	if os.Getenv(config.EnvName("log.format")) == "" && file == "" {
		cfg.Log.Format = "text"
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data_dir (TENURE_DATA_DIR) %s cannot be created: %w", cfg.DataDir, err)
	}
	secrets, err := loadDevSecrets(filepath.Join(cfg.DataDir, "secrets.json"))
	if err != nil {
		return nil, err
	}
	if cfg.Auth.SigningKey == "" {
		cfg.Auth.SigningKey = secrets.AuthSigningKey
	}
	if cfg.Links.SigningKey == "" {
		cfg.Links.SigningKey = secrets.LinksSigningKey
	}
	if cfg.Webhooks.SecretKey == "" {
		cfg.Webhooks.SecretKey = secrets.WebhooksSecretKey
	}
	if len(cfg.Mandates.IBANKeys) == 0 {
		cfg.Mandates.IBANKeys = []string{secrets.MandatesIBANKey}
	}
	if !cfg.Console.Enabled() {
		cfg.Console.TOTPKeys = []string{secrets.ConsoleTOTPKey}
	}
	cfg.Temporal.Address = net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Dev.TemporalPort))
	if !cfg.HTTP.AdminAddrGiven {
		cfg.HTTP.AdminAddr = config.DevAdminAddr
	}
	return cfg, cfg.Validate(config.NeedDatabase | config.NeedTemporal | config.NeedHTTP | config.NeedDev | config.NeedWebhooks | config.NeedMandates)
}

// loadDevSecrets reads the kept keys, generating (and keeping) any that are
// missing, such as a key a later version added to an older data directory.
func loadDevSecrets(path string) (devSecrets, error) {
	var s devSecrets
	raw, err := os.ReadFile(path)
	if err == nil {
		if err := json.Unmarshal(raw, &s); err != nil {
			return s, fmt.Errorf("%s is damaged (%v): delete it to generate new keys", path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return s, err
	}
	missing := false
	for _, key := range []*string{&s.AuthSigningKey, &s.LinksSigningKey, &s.WebhooksSecretKey} {
		if *key == "" {
			*key, missing = randomKey(), true
		}
	}
	for _, key := range []*string{&s.MandatesIBANKey, &s.ConsoleTOTPKey} {
		if *key == "" {
			*key, missing = devRingKey(), true
		}
	}
	if !missing {
		return s, nil
	}
	raw, _ = json.MarshalIndent(s, "", "  ")
	return s, os.WriteFile(path, raw, 0o600)
}

// devRingKey is a fresh key of a key ring (IBANs, TOTP secrets), named
// by the day it was made, as an operator would name it.
func devRingKey() string {
	spec, _ := keyring.GenerateSpec("dev-" + time.Now().UTC().Format("20060102"))
	return spec
}

func randomKey() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// sandboxSellerFile is what `tenure dev` writes about the seller it seeded,
// for people and scripts.
type sandboxSellerFile struct {
	SellerID      string `json:"seller_id"`
	ClientID      string `json:"client_id"`
	ClientSecret  string `json:"client_secret"`
	APIURL        string `json:"api_url"`
	TemporalUIURL string `json:"temporal_ui_url"`
}

// devServerRecord is where `tenure dev` records its Temporal dev server,
// for the other commands and for its next start.
func devServerRecord(cfg *config.Config) string {
	return filepath.Join(cfg.DataDir, "temporal-dev.json")
}

func runDev(ctx context.Context, cfg *config.Config, logger *slog.Logger, out io.Writer) error {
	// A dev server an earlier run left (killed before it could stop it)
	// holds the ports this run needs.
	if pid, err := temporalcli.StopLeftover(devServerRecord(cfg), 15*time.Second); err != nil {
		return err
	} else if pid != 0 {
		logger.Warn("stopped the Temporal dev server an earlier tenure dev left running", "pid", pid)
	}
	// Every address is checked before anything starts, so a taken port is
	// reported by its setting instead of as a half-started stack.
	ln, err := listen("http.addr", cfg.HTTP.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	obs, err := observe(ctx, cfg)
	if err != nil {
		return err
	}
	defer obs.close(logger)
	dataDir, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return err
	}
	devServer := temporalcli.DevServerOptions{
		IP:     "127.0.0.1",
		Port:   cfg.Dev.TemporalPort,
		UIPort: cfg.Dev.UIPort,
		// Absolute, as the record names the server by it.
		DBFile:     filepath.Join(dataDir, "temporal.db"),
		LogFile:    filepath.Join(dataDir, "temporal.log"),
		RecordFile: devServerRecord(cfg),
		Namespace:  cfg.Temporal.Namespace,
		// Registered at start, so operators can filter from the first offer on.
		SearchAttributes: searchattr.All(),
	}
	for key, port := range map[string]int{"dev.temporal_port": devServer.Port, "dev.ui_port": devServer.UIPort} {
		probe, err := listen(key, net.JoinHostPort(devServer.IP, strconv.Itoa(port)))
		if err != nil {
			return err
		}
		probe.Close()
	}

	if err := db.EnsureDatabase(ctx, cfg.Database.URL); err != nil {
		return err
	}
	store, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer store.Pool.Close()
	if err := db.Migrate(ctx, store.Pool, logger); err != nil {
		return err
	}

	logger.Info("looking for the Temporal CLI (the first run builds it, which takes a few minutes)", "version", temporalcli.Version)
	if devServer.CLI, err = temporalcli.Find(ctx, cfg.Dev.TemporalCLI, cfg.DataDir); err != nil {
		return err
	}
	server, err := temporalcli.StartDevServer(ctx, devServer)
	if err != nil {
		return err
	}
	defer func() {
		logger.Info("stopping the Temporal dev server")
		if err := server.Stop(15 * time.Second); err != nil {
			logger.Warn("Temporal dev server stopped uncleanly", "error", err)
		}
	}()
	tc, err := dialTemporal(ctx, cfg, logger, obs)
	if err != nil {
		return err
	}
	defer tc.Close()

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(runCtx)
	g.Go(func() error { return runWorkers(gctx, cfg, store, tc, logger, obs) })
	g.Go(func() error { return serveHTTP(gctx, ln, cfg, store, tc, logger, obs.metrics) })
	g.Go(func() error { return obs.serveAdmin(gctx, store, tc, logger) })

	seller, err := devSeller(gctx, cfg, store, tc, devServer.UIURL())
	if err != nil {
		cancel()
		_ = g.Wait()
		return err
	}
	links, err := devSignInLinks(gctx, cfg, store, uuid.MustParse(seller.SellerID))
	if err != nil {
		cancel()
		_ = g.Wait()
		return err
	}
	printDevBanner(out, cfg, seller, links)
	return g.Wait()
}

// devSeller reuses the seller of an earlier run when its credentials still
// work, and registers a new one otherwise. Either way the seller file is
// rewritten with the current addresses before the fixtures are seeded, so
// a run whose seeding failed leaves a seller the next run reuses.
func devSeller(ctx context.Context, cfg *config.Config, store *db.Store, tc client.Client, uiURL string) (sandboxSellerFile, error) {
	path := filepath.Join(cfg.DataDir, "sandbox-seller.json")
	var seller sandboxSellerFile
	if raw, err := os.ReadFile(path); err != nil || json.Unmarshal(raw, &seller) != nil || !credentialsWork(ctx, store, seller) {
		created, err := createSeller(ctx, cfg, store, "Sandbox Seller", "EUR")
		if err != nil {
			return seller, err
		}
		seller = sandboxSellerFile{
			SellerID:     created.Seller.ID.String(),
			ClientID:     created.Credentials.ClientID,
			ClientSecret: created.Credentials.ClientSecret,
		}
	}
	seller.APIURL = cfg.HTTP.PublicURL
	seller.TemporalUIURL = uiURL
	raw, _ := json.MarshalIndent(seller, "", "  ")
	if err := os.WriteFile(path, append(raw, '\n'), 0o600); err != nil {
		return seller, err
	}
	if cfg.Environment != config.Sandbox {
		return seller, nil
	}
	// Seeding is idempotent; running it on every start repairs fixtures
	// a reset database lost.
	return seller, seedSandbox(ctx, cfg, tc, uuid.MustParse(seller.SellerID), seedWait)
}

func credentialsWork(ctx context.Context, store *db.Store, s sandboxSellerFile) bool {
	cred, err := store.GetSellerCredential(ctx, s.ClientID)
	return err == nil && cred.SellerID.String() == s.SellerID && auth.SecretMatches(cred.SecretHash, s.ClientSecret)
}

func printDevBanner(out io.Writer, cfg *config.Config, s sandboxSellerFile, links []devSignInLink) {
	signIn := ""
	for _, l := range links {
		signIn += fmt.Sprintf("  Sign in once   %s (%s):\n                 %s\n", l.Email, l.Who, l.Link)
	}
	metrics := ""
	if cfg.HTTP.AdminAddr != "" {
		metrics = fmt.Sprintf("  Metrics        http://%s/metrics\n", cfg.HTTP.AdminAddr)
	}
	fmt.Fprintf(out, `
Tenure is running (%s).

  API            %s
  Contract       %s/openapi/seller.yaml
  API reference  %s/docs
  Console        %s/console/
%s  Temporal UI    %s
%s
  Sandbox seller %s
  Client id      %s
  Client secret  %s
  (saved in %s)

Get an access token:
  curl -s -u '%s:%s' -d grant_type=client_credentials -d scope=client %s/oauth2/token

Press Ctrl-C to stop.
`, cfg.Environment, s.APIURL, s.APIURL, s.APIURL, cfg.ConsoleOrigin(), signIn, s.TemporalUIURL, metrics, s.SellerID, s.ClientID, s.ClientSecret,
		filepath.Join(cfg.DataDir, "sandbox-seller.json"), s.ClientID, s.ClientSecret, s.APIURL)
}
