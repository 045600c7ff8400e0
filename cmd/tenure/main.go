// Command tenure runs Tenure: the HTTP APIs, the Temporal worker, database
// migrations, seller administration, and `tenure dev`, which runs all of it
// on one machine.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	// SIGHUP too: a closed terminal stops `tenure dev` in order.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if err := rootCommand().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "tenure:", err)
		os.Exit(1)
	}
}

func rootCommand() *cobra.Command {
	var configFile string
	root := &cobra.Command{
		Use:           "tenure",
		Short:         "Tenure finances business equipment for merchants' customers",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&configFile, "config", os.Getenv("TENURE_CONFIG"),
		"path of a tenure.yaml (default ./tenure.yaml when present; TENURE_CONFIG)")
	file := func() string { return configFile }
	root.AddCommand(
		devCommand(file),
		serveCommand(file),
		workerCommand(file),
		migrateCommand(file),
		sellersCommand(file),
		offersCommand(file),
		riskCommand(file),
		contractsCommand(file),
		collectionsCommand(file),
		payoutsCommand(file),
		mandatesCommand(file),
		leadsCommand(file),
		operatorsCommand(file),
		temporalCLICommand(file),
	)
	return root
}
