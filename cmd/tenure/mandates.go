package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/mandates"
)

func mandatesCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "mandates", Short: "Keep the customers' SEPA direct-debit mandates"}
	cmd.AddCommand(mandatesResealCommand(file))
	return cmd
}

func mandatesResealCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "reseal",
		Short: "Seal every stored IBAN with the current key of mandates.iban_keys, so older keys can be removed",
		Long: "After a new key was put first in mandates.iban_keys (the older ones kept after it), seal every stored\n" +
			"IBAN sealed with an older key again with the new one. Once it reports none left, the older keys can leave\n" +
			"the configuration. Running it again changes nothing.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := connect(cmd.Context(), file(), config.NeedDatabase|config.NeedMandates)
			if err != nil {
				return err
			}
			defer c.close()
			ring, err := c.cfg.Mandates.IBANRing()
			if err != nil {
				return err
			}
			n, err := mandates.Reseal(cmd.Context(), c.store, ring)
			if err != nil {
				return fmt.Errorf("%w (%d mandates were sealed again before it)", err, n)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%d mandates sealed again with key %s\n", n, ring.CurrentID())
			return err
		},
	}
}
