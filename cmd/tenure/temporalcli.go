package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/cmd/tenure/temporalcli"
)

func temporalCLICommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "temporal-cli",
		Short: "Find or install the pinned Temporal CLI and print its path",
		Long: "Prints the path of the Temporal CLI `tenure dev` uses, building " + temporalcli.Module + "@" +
			temporalcli.Version + " into <data dir>/bin when no suitable one is found.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig(file(), 0)
			if err != nil {
				return err
			}
			path, err := temporalcli.Find(cmd.Context(), cfg.Dev.TemporalCLI, cfg.DataDir)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), path)
			return err
		},
	}
}
