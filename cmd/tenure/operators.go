package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/console"
)

func operatorsCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "operators", Short: "Create, list and disable the operators who sign in to the console at /console/"}
	cmd.AddCommand(operatorsCreateCommand(file), operatorsListCommand(file), operatorsDisableCommand(file))
	return cmd
}

// consoleAccounts connects to the database and opens the console's
// accounts with the configured TOTP keys; without them, the key `tenure
// dev` keeps in its data directory, so operators can be created for it
// from a second terminal.
func consoleAccounts(cmd *cobra.Command, file string) (*console.Accounts, func(), error) {
	c, err := connect(cmd.Context(), file, config.NeedDatabase)
	if err != nil {
		return nil, nil, err
	}
	if !c.cfg.Console.Enabled() {
		path := filepath.Join(c.cfg.DataDir, "secrets.json")
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			c.close()
			return nil, nil, errors.New("console.totp_keys (TENURE_CONSOLE_TOTP_KEYS): must list at least one key id:base64 " +
				"(32 random bytes), the current one first; `tenure dev` generates one")
		}
		secrets, err := loadDevSecrets(path)
		if err != nil {
			c.close()
			return nil, nil, err
		}
		c.cfg.Console.TOTPKeys = []string{secrets.ConsoleTOTPKey}
	}
	ring, err := c.cfg.Console.TOTPRing()
	if err != nil {
		c.close()
		return nil, nil, fmt.Errorf("console.totp_keys (TENURE_CONSOLE_TOTP_KEYS): %w", err)
	}
	return &console.Accounts{Store: c.store, TOTPKeys: ring, IdleTimeout: c.cfg.Console.IdleTimeout,
		AbsoluteTimeout: c.cfg.Console.AbsoluteTimeout, InvitationTTL: c.cfg.Console.InvitationTTL, Now: time.Now}, c.close, nil
}

func operatorsCreateCommand(file func() string) *cobra.Command {
	var role string
	var passwordStdin bool
	cmd := &cobra.Command{
		Use:   "create EMAIL --role reviewer|finance|admin [--password-stdin]",
		Short: "Create an operator and print the TOTP provisioning URI (and a generated password) once",
		Long: "Creates an operator account. The TOTP provisioning URI is printed once: add it to an authenticator app " +
			"(paste it, or make a QR code of it). The password is read from the first line of standard input with " +
			"--password-stdin (at least 12 characters); otherwise one is generated and printed once.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := console.ParseOperatorRole(role)
			if err != nil {
				return err
			}
			password := ""
			if passwordStdin {
				line, err := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
				if err != nil && line == "" {
					return errors.New("--password-stdin: standard input has no password")
				}
				password = strings.TrimRight(line, "\r\n")
				if password == "" {
					return errors.New("--password-stdin: the password is empty")
				}
			}
			accounts, done, err := consoleAccounts(cmd, file())
			if err != nil {
				return err
			}
			defer done()
			acct, err := accounts.CreateOperator(cmd.Context(), args[0], r, password)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "operator %s (%s) created\n", acct.Email, acct.Role)
			if acct.Password != "" {
				fmt.Fprintf(out, "password: %s\n", acct.Password)
			}
			fmt.Fprintf(out, "TOTP: %s\nrecovery codes (each signs in once in place of a TOTP code):\n", acct.ProvisioningURI)
			for _, code := range acct.RecoveryCodes {
				fmt.Fprintf(out, "  %s\n", code)
			}
			_, err = fmt.Fprintln(out, "They are shown only now.")
			return err
		},
	}
	cmd.Flags().StringVar(&role, "role", "", "the operator's role: reviewer, finance or admin")
	cmd.Flags().BoolVar(&passwordStdin, "password-stdin", false, "read the password from standard input instead of generating one")
	_ = cmd.MarkFlagRequired("role")
	return cmd
}

func operatorsListCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the operators: e-mail address, role, created, disabled",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			accounts, done, err := consoleAccounts(cmd, file())
			if err != nil {
				return err
			}
			defer done()
			ops, err := accounts.ListOperators(cmd.Context())
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "EMAIL\tROLE\tCREATED\tDISABLED")
			for _, o := range ops {
				disabled := "-"
				if o.DisabledAt != nil {
					disabled = o.DisabledAt.UTC().Format(time.RFC3339)
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", o.Email, o.Role, o.CreatedAt.UTC().Format(time.RFC3339), disabled)
			}
			return w.Flush()
		},
	}
}

func operatorsDisableCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "disable EMAIL",
		Short: "Disable an operator: their sessions end and they cannot sign in again",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			accounts, done, err := consoleAccounts(cmd, file())
			if err != nil {
				return err
			}
			defer done()
			if err := accounts.Disable(cmd.Context(), args[0]); err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "operator %s disabled\n", strings.ToLower(args[0]))
			return err
		},
	}
}
