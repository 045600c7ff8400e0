package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/payouts"
	"github.com/tenurehq/tenure/foundation/civil"
)

func payoutsCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "payouts", Short: "Pay sellers what Tenure owes them for their completed orders"}
	cmd.AddCommand(payoutsRunCommand(file))
	return cmd
}

func payoutsRunCommand(file func() string) *cobra.Command {
	var date string
	cmd := &cobra.Command{
		Use:   "run [--date YYYY-MM-DD]",
		Short: "Run the payout batch of a day: one pain.001 file per contractual entity's account",
		Long: "Pay every owed payout of sellers with a payout account (tenure sellers set-payout-account) by SEPA\n" +
			"credit transfer, executed on the day or the next TARGET business day: one pain.001.001.09 file per\n" +
			"contractual entity's creditor account (creditors.<entity>.iban), stored with the payouts it pays, which become sent.\n" +
			"Running it again pays nothing twice. Sellers without a payout account are skipped and counted.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			day := civil.DateOf(time.Now())
			if date != "" {
				d, err := civil.ParseDate(date)
				if err != nil {
					return fmt.Errorf("--date %q is not a day (YYYY-MM-DD)", date)
				}
				day = d
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			batch, err := payouts.NewBatch(c.cfg, c.store)
			if err != nil {
				return err
			}
			result, err := batch.Run(cmd.Context(), day, time.Now())
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			for _, f := range result.Files {
				if _, err := fmt.Fprintf(out, "%s: file %s (%s), %d payouts, %s EUR\n", f.Entity, f.ID, f.MessageID, f.Transfers, hundredths(f.Total)); err != nil {
					return err
				}
			}
			if len(result.Files) == 0 {
				if _, err := fmt.Fprintln(out, "nothing to pay"); err != nil {
					return err
				}
			}
			if result.Skipped > 0 {
				_, err = fmt.Fprintf(out, "skipped %d owed payouts of sellers without a payout account (tenure sellers set-payout-account)\n", result.Skipped)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&date, "date", "", "the batch's day (default today)")
	return cmd
}

func sellersSetPayoutAccountCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "set-payout-account SELLER_ID IBAN [BIC]",
		Short: "Set the account a seller's payouts are paid to",
		Long: "Set the account a seller's payouts are paid to by SEPA credit transfer: an IBAN of a SEPA country\n" +
			"(checked: country, length, check digits) and optionally its BIC. The seller's name is the account holder.",
		Args: cobra.RangeArgs(2, 3),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := sellerIDArg(args[0])
			if err != nil {
				return err
			}
			bic := ""
			if len(args) == 3 {
				bic = args[2]
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			iban, err := payouts.SetAccount(cmd.Context(), c.store.Queries, id, args[1], bic)
			if errors.Is(err, payouts.ErrSellerNotFound) {
				return fmt.Errorf("no seller %s", id)
			}
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "seller %s: payouts to %s\n", id, iban.Masked())
			return err
		},
	}
}
