package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/workflows/permanent"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

func sellersCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "sellers", Short: "Create and list sellers, seed their sandbox fixtures, rotate their client secrets, register webhook endpoints, keep their profiles"}
	cmd.AddCommand(sellersCreateCommand(file), sellersSeedCommand(file), sellersListCommand(file), sellersRotateCommand(file), sellersSetWebhookCommand(file),
		sellersShowCommand(file), sellersSetProfileCommand(file), sellersSetTermsCommand(file), sellersSetResidualCommand(file),
		sellersSetPayoutAccountCommand(file),
		sellersSetPaymentMethodRequiredCommand(file), sellersUsersCommand(file))
	return cmd
}

// sellerCredentialsOutput is what `--json` prints for scripts.
type sellerCredentialsOutput struct {
	SellerID     string `json:"seller_id"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

// seedWait is how long commands wait for a seller's sandbox fixtures by
// default; with a worker polling, seeding takes about ten seconds.
const seedWait = 2 * time.Minute

func sellersCreateCommand(file func() string) *cobra.Command {
	var name, currency string
	var asJSON bool
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Register a seller and print its client credentials (the secret is shown once)",
		Long: "Registers a seller and prints its client credentials. In the sandbox it then seeds the seller's fixtures " +
			"through a workflow a worker must run, waiting at most --wait.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cfg, err := config.Load(file())
			if err != nil {
				return err
			}
			// Only a sandbox seller's fixtures need Temporal (and a worker).
			need := config.NeedDatabase
			if cfg.Environment == config.Sandbox {
				need |= config.NeedTemporal
			}
			c, err := connect(ctx, file(), need)
			if err != nil {
				return err
			}
			defer c.close()
			seller, err := createSeller(ctx, c.cfg, c.store, name, currency)
			if err != nil {
				return err
			}
			// Printed before the seeding: the secret is shown only once,
			// and the seller exists whatever becomes of its fixtures.
			if err := printCredentials(cmd.OutOrStdout(), asJSON, seller.Seller.ID, seller.Credentials); err != nil {
				return err
			}
			if c.cfg.Environment != config.Sandbox {
				return nil
			}
			if err := seedSandbox(ctx, c.cfg, c.temporal, seller.Seller.ID, wait); err != nil {
				return fmt.Errorf("%w\nThe seller exists (its credentials are above); once the cause is fixed, seed its fixtures with: tenure sellers seed %s",
					err, seller.Seller.ID)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the seller's name (required)")
	cmd.Flags().StringVar(&currency, "currency", "EUR", "the seller's currency, an ISO 4217 code")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {seller_id, client_id, client_secret} as JSON")
	cmd.Flags().DurationVar(&wait, "wait", seedWait, "how long to wait for the sandbox fixtures before giving up")
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

func sellersSeedCommand(file func() string) *cobra.Command {
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "seed SELLER_ID",
		Short: "Seed a sandbox seller's fixtures again (fixtures in place are left as they are)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sellerID, err := recordid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("SELLER_ID must be a seller id (a UUID), got %q", args[0])
			}
			ctx := cmd.Context()
			c, err := connect(ctx, file(), config.NeedDatabase|config.NeedTemporal)
			if err != nil {
				return err
			}
			defer c.close()
			if c.cfg.Environment != config.Sandbox {
				return fmt.Errorf("fixtures are for sandbox sellers, and environment (TENURE_ENVIRONMENT) is %s", c.cfg.Environment)
			}
			if _, err := c.store.GetSeller(ctx, sellerID); db.IsNotFound(err) {
				return fmt.Errorf("no seller with id %s", sellerID)
			} else if err != nil {
				return err
			}
			if err := seedSandbox(ctx, c.cfg, c.temporal, sellerID, wait); err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "the sandbox fixtures of seller %s are in place\n", sellerID)
			return err
		},
	}
	cmd.Flags().DurationVar(&wait, "wait", seedWait, "how long to wait for the fixtures before giving up")
	return cmd
}

// seedSandbox seeds a sandbox seller's fixtures by running the fixture
// workflow to completion (a worker must be polling), waiting at most wait.
func seedSandbox(ctx context.Context, cfg *config.Config, tc client.Client, sellerID uuid.UUID, wait time.Duration) error {
	w := workflowWait{cfg: cfg, temporal: tc, taskQueue: sandbox.TaskQueue, workflowID: sandbox.WorkflowID(sellerID), limit: wait}
	bounded, cancel := w.context(ctx)
	defer cancel()
	run, err := tc.ExecuteWorkflow(bounded, client.StartWorkflowOptions{
		ID:                       w.workflowID,
		TaskQueue:                sandbox.TaskQueue,
		WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, sandbox.SeedSeller, sandbox.SeedInput{SellerID: sellerID})
	if err == nil {
		err = run.Get(bounded, nil)
	}
	switch {
	case err == nil:
		return nil
	case w.ranOut(ctx, bounded):
		return fmt.Errorf("seeding the sandbox fixtures of seller %s: %w", sellerID, w.gaveUp(ctx))
	}
	return fmt.Errorf("seeding the sandbox fixtures of seller %s failed (workflow %s): %s", sellerID, w.workflowID, failureReason(err))
}

// failureReason is the reason a workflow failed, as its failing step gave
// it, without the SDK's wrapping.
func failureReason(err error) string {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		return err.Error()
	}
	var act *temporal.ActivityError
	if errors.As(err, &act) && app.Type() != permanent.ErrorType {
		// A permanent failure's message names its step already.
		return act.ActivityType().Name + ": " + app.Message()
	}
	return app.Message()
}

func printCredentials(w io.Writer, asJSON bool, sellerID uuid.UUID, c auth.Credentials) error {
	out := sellerCredentialsOutput{SellerID: sellerID.String(), ClientID: c.ClientID, ClientSecret: c.ClientSecret}
	if asJSON {
		return json.NewEncoder(w).Encode(out)
	}
	_, err := fmt.Fprintf(w, "seller id:     %s\nclient id:     %s\nclient secret: %s\n(the secret is shown only now)\n",
		out.SellerID, out.ClientID, out.ClientSecret)
	return err
}

func sellersListCommand(file func() string) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List sellers and their client ids",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			c, err := connect(ctx, file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			store := c.store
			type listed struct {
				SellerID  string    `json:"seller_id"`
				Name      string    `json:"name"`
				Currency  string    `json:"currency"`
				ClientIDs []string  `json:"client_ids"`
				CreatedAt time.Time `json:"created_at"`
			}
			sellers, err := store.ListSellers(ctx)
			if err != nil {
				return err
			}
			rows := make([]listed, 0, len(sellers))
			for _, s := range sellers {
				creds, err := store.ListSellerCredentials(ctx, s.ID)
				if err != nil {
					return err
				}
				row := listed{SellerID: s.ID.String(), Name: s.Name, Currency: s.Currency, CreatedAt: s.CreatedAt, ClientIDs: []string{}}
				for _, c := range creds {
					if c.RevokedAt != nil {
						continue
					}
					row.ClientIDs = append(row.ClientIDs, c.ClientID)
				}
				rows = append(rows, row)
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(rows)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SELLER ID\tNAME\tCURRENCY\tCLIENT IDS")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%v\n", r.SellerID, r.Name, r.Currency, r.ClientIDs)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func sellersRotateCommand(file func() string) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rotate-secret CLIENT_ID",
		Short: "Replace a client's secret; the old one, and every access token issued with it, stop working at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := connect(ctx, file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			store := c.store
			sellerID, creds, err := auth.RotateSecret(ctx, store, args[0])
			if err != nil {
				return err
			}
			return printCredentials(cmd.OutOrStdout(), asJSON, sellerID, creds)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {seller_id, client_id, client_secret} as JSON")
	return cmd
}
