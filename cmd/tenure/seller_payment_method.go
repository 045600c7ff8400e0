package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/services"
)

func sellersSetPaymentMethodRequiredCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "set-payment-method-required SELLER_ID on|off",
		Short: "Require (on) or not (off) a SEPA direct-debit mandate from a seller's customers before they accept an offer",
		Long: "Require (on) or not (off) a SEPA direct-debit mandate from a seller's customers before they accept an\n" +
			"offer: the customer's offer then shows payment_method_required, the hosted checkout a payment step,\n" +
			"and an acceptance without a mandate is refused. Sellers created in a sandbox deployment start with on,\n" +
			"in production with off. Offers already accepted keep what they were accepted with.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := sellerIDArg(args[0])
			if err != nil {
				return err
			}
			var required bool
			switch args[1] {
			case "on":
				required = true
			case "off":
			default:
				return fmt.Errorf("the second argument is on or off, got %q", args[1])
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			n, err := c.store.SetSellerPaymentMethodRequired(cmd.Context(), dbgen.SetSellerPaymentMethodRequiredParams{ID: id, Required: required})
			if err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("no seller %s", id)
			}
			if required {
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "seller %s: customers give a SEPA direct-debit mandate before they accept\n", id)
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "seller %s: customers accept without a payment method\n", id)
			return err
		},
	}
}

// createSeller registers a seller with the settings of the deployment's
// environment, as the console does (services.RegisterSeller).
func createSeller(ctx context.Context, cfg *config.Config, store *db.Store, name, currency string) (auth.NewSeller, error) {
	return services.RegisterSeller(ctx, cfg.Environment == config.Sandbox, store, name, currency)
}
