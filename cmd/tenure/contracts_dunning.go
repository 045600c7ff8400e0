package main

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/workflows/contract"
	"github.com/tenurehq/tenure/workflows/entity"
)

// contractDecisionCommand is an operator's decision on a defaulted
// contract, sent to its workflow as an update.
func contractDecisionCommand(file func() string, use, short string, decide func(context.Context, client.Client, uuid.UUID) (contract.Answer, error)) *cobra.Command {
	return &cobra.Command{
		Use:   use + " CONTRACT_ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := recordid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("%q is not a contract id", args[0])
			}
			c, err := connect(cmd.Context(), file(), config.NeedTemporal)
			if err != nil {
				return err
			}
			defer c.close()
			answer, err := decide(cmd.Context(), c.temporal, id)
			if r, ok := entity.RefusalOf(err); ok {
				return fmt.Errorf("contract %s: %s", id, r.Message)
			}
			if entity.Ended(err) {
				return fmt.Errorf("contract %s has no running workflow: only a defaulted contract takes this decision", id)
			}
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "contract %s is %s on %s\n", id, answer.Status, answer.Today)
			return err
		},
	}
}

func contractsWriteOffCommand(file func() string) *cobra.Command {
	return contractDecisionCommand(file, "write-off",
		"Write a defaulted contract off: its owed installments and charges are waived and booked as an expense ("+string(contracts.WrittenOff)+")",
		contract.WriteOffContract)
}

func contractsTerminateAndClaimCommand(file func() string) *cobra.Command {
	return contractDecisionCommand(file, "terminate-and-claim",
		"Terminate a defaulted contract and claim its installments not yet due as one charge",
		contract.TerminateAndClaimContract)
}
