package main

import (
	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
)

func migrateCommand(file func() string) *cobra.Command {
	var create bool
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply pending database migrations (safe to run from several processes at once)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cfg, err := loadConfig(file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			if create {
				if err := db.EnsureDatabase(ctx, cfg.Database.URL); err != nil {
					return err
				}
			}
			store, err := openStore(ctx, cfg)
			if err != nil {
				return err
			}
			defer store.Pool.Close()
			return db.Migrate(ctx, store.Pool, newLogger(cfg))
		},
	}
	cmd.Flags().BoolVar(&create, "create-database", false, "create the database first when it does not exist")
	return cmd
}
