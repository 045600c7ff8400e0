package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
)

func sellersSetResidualCommand(file func() string) *cobra.Command {
	var percent string
	var deployment bool
	cmd := &cobra.Command{
		Use:   "set-residual SELLER_ID (--percent P | --default)",
		Short: "Set the residual value a seller's contracts are bought out at, as a percentage of the net purchase price",
		Long: "Set the residual value a seller's contracts are bought out at, as a percentage of the line's net\n" +
			"purchase price (up to two decimals, 0 to 100), or fall back to the deployment's\n" +
			"contracts.residual_basis_points with --default. Contracts take it when their notice prices the options.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (percent == "") == !deployment {
				return errors.New("give exactly one of --percent and --default")
			}
			id, err := sellerIDArg(args[0])
			if err != nil {
				return err
			}
			var basisPoints *int64
			if !deployment {
				bp, err := percentBasisPoints(percent)
				if err != nil {
					return err
				}
				basisPoints = &bp
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			n, err := c.store.SetSellerContractResidual(cmd.Context(), dbgen.SetSellerContractResidualParams{ID: id, BasisPoints: basisPoints})
			if err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("no seller %s", id)
			}
			if basisPoints == nil {
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "seller %s: buy-outs at the deployment's residual value, %s %%\n", id, hundredths(c.cfg.Contracts.ResidualBasisPoints))
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "seller %s: buy-outs at %s %% of the net purchase price\n", id, hundredths(*basisPoints))
			return err
		},
	}
	cmd.Flags().StringVar(&percent, "percent", "", "the residual value in percent, e.g. 12.5")
	cmd.Flags().BoolVar(&deployment, "default", false, "use the deployment's contracts.residual_basis_points")
	return cmd
}

// percentBasisPoints reads a percentage of up to two decimals, 0 to 100,
// as basis points, exactly: 12.5 is 1250.
func percentBasisPoints(raw string) (int64, error) {
	whole, fraction, _ := strings.Cut(raw, ".")
	bad := fmt.Errorf("--percent %q is not a percentage from 0 to 100 with at most two decimals", raw)
	if whole == "" || len(fraction) > 2 || strings.ContainsAny(raw, "+-") {
		return 0, bad
	}
	fraction += strings.Repeat("0", 2-len(fraction))
	bp, err := strconv.ParseInt(whole+fraction, 10, 64)
	if err != nil || bp > 10000 {
		return 0, bad
	}
	return bp, nil
}
