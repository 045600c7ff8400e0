package main

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/foundation/recordid"
)

// sellersUsersCommand keeps the seller users who sign in to the merchant
// portal: the seller's first admin is invited here, the others by them in
// the portal.
func sellersUsersCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "users", Short: "Invite, list and disable a seller's users of the merchant portal at /console/"}
	cmd.AddCommand(sellersUsersAddCommand(file), sellersUsersListCommand(file), sellersUsersDisableCommand(file))
	return cmd
}

// sellerUsersInvitedBy is who the audit of an invitation names when the
// command line made it.
const sellerUsersInvitedBy = "tenure sellers users add"

func sellersUsersAddCommand(file func() string) *cobra.Command {
	var role string
	cmd := &cobra.Command{
		Use:   "add SELLER_ID EMAIL --role admin|agent",
		Short: "Create a seller user and print their single-use invitation link",
		Long: "Creates a seller user with no password and prints a link that works once, until console.invitation_ttl " +
			"(72h by default) has passed: opening it, the user chooses a password, adds the TOTP key to an " +
			"authenticator app and signs in.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			sellerID, err := recordid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("SELLER_ID %q is not a seller id", args[0])
			}
			r, err := console.ParseSellerRole(role)
			if err != nil {
				return err
			}
			cfg, err := config.Load(file())
			if err != nil {
				return err
			}
			accounts, done, err := consoleAccounts(cmd, file())
			if err != nil {
				return err
			}
			defer done()
			if _, err := accounts.Store.GetSeller(cmd.Context(), sellerID); db.IsNotFound(err) {
				return fmt.Errorf("no seller with id %s", sellerID)
			} else if err != nil {
				return err
			}
			inv, err := accounts.InviteSellerUser(cmd.Context(), sellerID, args[1], r, sellerUsersInvitedBy)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "seller user %s (%s) created\ninvitation: %s\n"+
				"It works once, until %s; it is shown only now.\n",
				inv.User.Email, inv.User.Role, console.InvitationLink(cfg.HTTP.PublicURL, inv.Token), inv.ExpiresAt.UTC().Format(time.RFC3339))
			return err
		},
	}
	cmd.Flags().StringVar(&role, "role", "", "the user's role: admin or agent")
	_ = cmd.MarkFlagRequired("role")
	return cmd
}

func sellersUsersListCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "list SELLER_ID",
		Short: "List a seller's users: e-mail address, role, status (invited, active, disabled), created",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sellerID, err := recordid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("SELLER_ID %q is not a seller id", args[0])
			}
			accounts, done, err := consoleAccounts(cmd, file())
			if err != nil {
				return err
			}
			defer done()
			users, err := accounts.SellerUsers(cmd.Context(), sellerID)
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "EMAIL\tROLE\tSTATUS\tCREATED")
			for _, u := range users {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", u.Email, u.Role, u.Status, u.CreatedAt.UTC().Format(time.RFC3339))
			}
			return w.Flush()
		},
	}
}

func sellersUsersDisableCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "disable EMAIL",
		Short: "Disable a seller user: their sessions end and they cannot sign in again",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			email := strings.ToLower(args[0])
			accounts, done, err := consoleAccounts(cmd, file())
			if err != nil {
				return err
			}
			defer done()
			row, err := accounts.Store.GetConsoleUserByEmail(cmd.Context(), email)
			if db.IsNotFound(err) || (err == nil && row.Kind != string(console.SellerUser)) {
				return fmt.Errorf("%s: no seller user with this e-mail address (operators: tenure operators disable)", email)
			}
			if err != nil {
				return err
			}
			if err := accounts.Disable(cmd.Context(), email); err != nil {
				return fmt.Errorf("%s: %w", email, err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "seller user %s disabled\n", email)
			return err
		},
	}
}
