package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
)

func leadsCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "leads", Short: "Read the contacts visitors left through POST /customer/crm/contacts"}
	cmd.AddCommand(leadsListCommand(file))
	return cmd
}

// leadOutput is a lead as `--json` prints it.
type leadOutput struct {
	ID            string    `json:"id"`
	Email         string    `json:"email"`
	Company       string    `json:"company"`
	FirstName     string    `json:"first_name"`
	LastName      string    `json:"last_name"`
	Phone         string    `json:"phone"`
	Website       string    `json:"website"`
	ClientAddress string    `json:"client_address"`
	CreatedAt     time.Time `json:"created_at"`
}

func leadsListCommand(file func() string) *cobra.Command {
	var asJSON bool
	var since time.Duration
	var limit int64
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List leads, oldest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 1 || limit > 100000 {
				return fmt.Errorf("--limit must be between 1 and 100000, got %d", limit)
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			from := time.Time{}
			if since > 0 {
				from = time.Now().Add(-since)
			}
			leads, err := c.store.ListLeads(cmd.Context(), dbgen.ListLeadsParams{Since: from, RowLimit: limit})
			if err != nil {
				return err
			}
			out := make([]leadOutput, len(leads))
			for i, l := range leads {
				out[i] = leadOutput{ID: l.ID.String(), Email: l.Email, Company: l.Company, FirstName: l.FirstName,
					LastName: l.LastName, Phone: l.Phone, Website: l.Website, ClientAddress: l.ClientAddress, CreatedAt: l.CreatedAt}
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(out)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "CREATED\tE-MAIL\tNAME\tCOMPANY\tPHONE\tWEBSITE")
			for _, l := range out {
				fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\t%s\n", l.CreatedAt.UTC().Format(time.RFC3339), l.Email,
					l.FirstName, l.LastName, l.Company, l.Phone, l.Website)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().DurationVar(&since, "since", 0, "only leads of this last period, e.g. 168h (default: all)")
	cmd.Flags().Int64Var(&limit, "limit", 1000, "at most this many leads")
	return cmd
}
