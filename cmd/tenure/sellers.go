package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/identity"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

func sellersCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "sellers", Short: "Create and list sellers, rotate their client secrets, register webhook endpoints, keep their profiles"}
	cmd.AddCommand(sellersCreateCommand(file), sellersListCommand(file), sellersRotateCommand(file), sellersSetWebhookCommand(file),
		sellersShowCommand(file), sellersSetProfileCommand(file), sellersSetTermsCommand(file))
	return cmd
}

// sellerCredentialsOutput is what `--json` prints for scripts.
type sellerCredentialsOutput struct {
	SellerID     string `json:"seller_id"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

func sellersCreateCommand(file func() string) *cobra.Command {
	var name, currency string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Register a seller and print its client credentials (the secret is shown once)",
		Args:  cobra.NoArgs,
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
			seller, err := registerSeller(ctx, c.cfg, c.store, c.temporal, name, currency)
			if err != nil {
				return err
			}
			return printCredentials(cmd.OutOrStdout(), asJSON, seller.Seller.ID, seller.Credentials)
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the seller's name (required)")
	cmd.Flags().StringVar(&currency, "currency", "EUR", "the seller's currency, an ISO 4217 code")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {seller_id, client_id, client_secret} as JSON")
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

// registerSeller creates a seller and, in the sandbox, seeds its fixtures by
// running the fixture workflow to completion (a worker must be polling).
func registerSeller(ctx context.Context, cfg *config.Config, store *db.Store, tc client.Client, name, currency string) (identity.NewSeller, error) {
	seller, err := identity.CreateSeller(ctx, store, name, currency)
	if err != nil {
		return seller, err
	}
	if cfg.Environment != config.Sandbox {
		return seller, nil
	}
	return seller, seedSandbox(ctx, tc, seller.Seller.ID)
}

func seedSandbox(ctx context.Context, tc client.Client, sellerID uuid.UUID) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       sandbox.WorkflowID(sellerID),
		TaskQueue:                sandbox.TaskQueue,
		WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, sandbox.SeedSeller, sandbox.SeedInput{SellerID: sellerID})
	if err != nil {
		return fmt.Errorf("starting the sandbox fixtures of seller %s: %w", sellerID, err)
	}
	if err := run.Get(ctx, nil); err != nil {
		return fmt.Errorf("seeding the sandbox fixtures of seller %s (workflow %s; is a worker running?): %w", sellerID, run.GetID(), err)
	}
	return nil
}

func printCredentials(w io.Writer, asJSON bool, sellerID uuid.UUID, c identity.Credentials) error {
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
		Short: "Replace a client's secret; the old one stops working at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := connect(ctx, file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			store := c.store
			sellerID, creds, err := identity.RotateSecret(ctx, store, args[0])
			if err != nil {
				return err
			}
			return printCredentials(cmd.OutOrStdout(), asJSON, sellerID, creds)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {seller_id, client_id, client_secret} as JSON")
	return cmd
}
