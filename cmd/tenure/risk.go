package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/risk"
	"github.com/tenurehq/tenure/foundation/recordid"
)

func riskCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "risk", Short: "Check, show and backtest the risk rules; read the decision log; set sellers' limits"}
	cmd.AddCommand(riskCheckCommand(), riskDefaultCommand(file), riskDecisionsCommand(file), riskBacktestCommand(file), riskLimitsCommand(file))
	return cmd
}

func riskCheckCommand() *cobra.Command {
	var rules string
	cmd := &cobra.Command{
		Use:   "check --rules FILE",
		Short: "Check a rule set file: every syntax and type error with its rule and position, and a non-zero exit",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rs, err := risk.ReadRuleSet(rules)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s: rule set %s, %d rules, default %s (%s)\n",
				rules, rs.Version, len(rs.Rules), rs.Default.Outcome, rs.Default.Reason.Code)
			return err
		},
	}
	cmd.Flags().StringVar(&rules, "rules", "", "the rule set's YAML file")
	_ = cmd.MarkFlagRequired("rules")
	return cmd
}

func riskDefaultCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "default",
		Short: "Print the rule set the risk.* settings make, a starting point for a rule set of your own",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig(file(), 0)
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(risk.DefaultRuleSource(cfg.Risk))
			return err
		},
	}
}

func riskDecisionsCommand(file func() string) *cobra.Command {
	var offerID, outcome string
	var since period
	var limit int64
	cmd := &cobra.Command{
		Use:   "decisions --offer ID | --outcome accept|decline|manual [--since 7d]",
		Short: "Show the risk rules' decision on an offer (rule, reasons in en/de/nl, exposure, shadow, snapshot), or list decisions of an outcome",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (offerID == "") == (outcome == "") {
				return errors.New("give exactly one of --offer and --outcome")
			}
			if limit < 1 || limit > 10000 {
				return fmt.Errorf("--limit must be between 1 and 10000, got %d", limit)
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			if offerID != "" {
				return showDecision(cmd, c.store, offerID)
			}
			if !slices.Contains([]risk.Outcome{risk.Accept, risk.Decline, risk.Manual}, risk.Outcome(outcome)) {
				return fmt.Errorf("--outcome must be accept, decline or manual, got %q", outcome)
			}
			rows, err := c.store.ListRiskDecisionsByOutcome(cmd.Context(), dbgen.ListRiskDecisionsByOutcomeParams{
				Outcome: outcome, Since: since.start(), PageSize: int32(limit),
			})
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "DECIDED\tOFFER\tREFERENCE\tSTATUS\tRULE\tREASON\tTEXT")
			for _, r := range rows {
				var reason risk.Reason
				if err := json.Unmarshal(r.Reason, &reason); err != nil {
					return fmt.Errorf("decision %s has an unreadable reason: %w", r.ID, err)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.DecidedAt.UTC().Format(time.RFC3339), r.OfferID, r.SellerOfferReference,
					r.OfferStatus, r.RuleID, reason.Code, reason.EN)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&offerID, "offer", "", "the offer whose decision to show")
	cmd.Flags().StringVar(&outcome, "outcome", "", "list the decisions of this outcome, newest first")
	cmd.Flags().Var(&since, "since", "with --outcome: only decisions of this last period, e.g. 7d or 12h (default: all)")
	cmd.Flags().Int64Var(&limit, "limit", 100, "with --outcome: at most this many decisions")
	return cmd
}

// showDecision prints everything the decision log holds of an offer's
// decision, which is everything needed to explain it.
func showDecision(cmd *cobra.Command, store *db.Store, id string) error {
	ctx := cmd.Context()
	offerID, err := recordid.Parse(id)
	if err != nil {
		return fmt.Errorf("%q is not an offer id", id)
	}
	offer, err := store.GetOfferForOperator(ctx, offerID)
	if db.IsNotFound(err) {
		return fmt.Errorf("no offer %s", offerID)
	}
	if err != nil {
		return err
	}
	row, err := store.GetRiskDecisionByOffer(ctx, offerID)
	if db.IsNotFound(err) {
		return fmt.Errorf("offer %s (%s) has no risk decision: the rules decide production offers when they are submitted for review", offerID, offer.Status)
	}
	if err != nil {
		return err
	}
	l, err := risk.Decode(row)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "offer %s (reference %s, seller %s) is %s\n", offerID, offer.SellerOfferReference, offer.SellerID, offer.Status)
	fmt.Fprintf(w, "decided %s by rule set %s: %s\n", l.DecidedAt.UTC().Format(time.RFC3339), l.Decision.RuleSetVersion, l.Decision.Outcome)
	writeDecision(w, "", l.Decision)
	s := l.Snapshot
	fmt.Fprintf(w, "exposure before the offer: %s %s over %d offers; reserved %s\n", hundredths(s.Exposure.OpenNet), s.Offer.Currency, s.Exposure.Offers, hundredths(l.ReservedNet))
	fmt.Fprintf(w, "company keys: %s\n", strings.Join(l.CompanyKeys, ", "))
	if l.Shadow != nil {
		fmt.Fprintf(w, "shadow rule set %s would have decided: %s\n", l.Shadow.RuleSetVersion, l.Shadow.Outcome)
		writeDecision(w, "  ", *l.Shadow)
	}
	snapshot, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "snapshot (version %d):\n%s\n", s.Version, snapshot)
	return err
}

func writeDecision(w io.Writer, indent string, d risk.Decision) {
	fmt.Fprintf(w, "%s  rule: %s\n%s  reason: %s\n", indent, d.RuleID, indent, d.Reason.Code)
	fmt.Fprintf(w, "%s    en: %s\n%s    de: %s\n%s    nl: %s\n", indent, d.Reason.EN, indent, d.Reason.DE, indent, d.Reason.NL)
	if d.Error != "" {
		fmt.Fprintf(w, "%s  error: %s\n", indent, d.Error)
	}
}

// hundredths prints a count of hundredths as a decimal: an amount of minor
// units, or basis points as a percentage.
func hundredths(amount int64) string {
	sign := ""
	if amount < 0 {
		sign, amount = "-", -amount
	}
	return fmt.Sprintf("%s%d.%02d", sign, amount/100, amount%100)
}

func riskBacktestCommand(file func() string) *cobra.Command {
	var rules string
	var shadow bool
	var flips int
	since := period(30 * 24 * time.Hour)
	cmd := &cobra.Command{
		Use:   "backtest --rules FILE [--since 30d] | --shadow [--since 30d]",
		Short: "Replay the decision log's snapshots through a rule set (or compare the logged shadow decisions) and print the outcomes that differ",
		Long: "Replays the snapshots of the decisions logged since --since through the rule set of --rules and prints a " +
			"confusion table (live outcome by candidate outcome) and the offers that would flip, with the rule that decided " +
			"live and the rule that would decide. With --shadow, the shadow rule set's logged decisions are the candidate.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (rules == "") == !shadow {
				return errors.New("give exactly one of --rules and --shadow")
			}
			var candidate *risk.RuleSet
			if rules != "" {
				var err error
				if candidate, err = risk.ReadRuleSet(rules); err != nil {
					return err
				}
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			var b *risk.Backtest
			if shadow {
				b, err = risk.BacktestShadow(cmd.Context(), c.store.Queries, since.start())
			} else {
				b, err = risk.BacktestRuleSet(cmd.Context(), c.store.Queries, candidate, since.start())
			}
			if err != nil {
				return err
			}
			return b.Write(cmd.OutOrStdout(), flips)
		},
	}
	cmd.Flags().StringVar(&rules, "rules", "", "the candidate rule set's YAML file")
	cmd.Flags().BoolVar(&shadow, "shadow", false, "compare the shadow rule set's logged decisions instead")
	cmd.Flags().Var(&since, "since", "replay the decisions of this last period, e.g. 30d or 12h")
	cmd.Flags().IntVar(&flips, "flips", 100, "print at most this many flipped offers (-1: all)")
	return cmd
}

// limitAssignment is NAME=AMOUNT.
var limitAssignment = regexp.MustCompile(`^([a-z][a-z0-9_]{0,62})=(-?[0-9]+)$`)

func riskLimitsCommand(file func() string) *cobra.Command {
	var set, unset []string
	cmd := &cobra.Command{
		Use:   "limits SELLER_ID [--set NAME=AMOUNT]... [--unset NAME]...",
		Short: "Set, remove and print a seller's limits, which the risk rules read as seller.limits (amounts in cents)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sellerID, err := recordid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("%q is not a seller id", args[0])
			}
			type assignment struct {
				name   string
				amount int64
			}
			var assignments []assignment
			for _, s := range set {
				m := limitAssignment.FindStringSubmatch(s)
				if m == nil {
					return fmt.Errorf("--set %q: give NAME=AMOUNT, the name lower-case letters, digits and _, the amount whole cents", s)
				}
				amount, err := strconv.ParseInt(m[2], 10, 64)
				if err != nil {
					return fmt.Errorf("--set %q: %w", s, err)
				}
				assignments = append(assignments, assignment{m[1], amount})
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			ctx := cmd.Context()
			if _, err := c.store.GetSeller(ctx, sellerID); db.IsNotFound(err) {
				return fmt.Errorf("no seller %s", sellerID)
			} else if err != nil {
				return err
			}
			err = c.store.InTx(ctx, func(q *dbgen.Queries) error {
				for _, a := range assignments {
					if err := q.SetSellerRiskLimit(ctx, dbgen.SetSellerRiskLimitParams{SellerID: sellerID, Name: a.name, Amount: a.amount}); err != nil {
						return err
					}
				}
				for _, name := range unset {
					n, err := q.DeleteSellerRiskLimit(ctx, dbgen.DeleteSellerRiskLimitParams{SellerID: sellerID, Name: name})
					if err != nil {
						return err
					}
					if n == 0 {
						return fmt.Errorf("--unset %s: the seller has no such limit", name)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			limits, err := c.store.ListSellerRiskLimits(ctx, sellerID)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "LIMIT\tAMOUNT")
			for _, l := range limits {
				fmt.Fprintf(tw, "%s\t%d\n", l.Name, l.Amount)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringArrayVar(&set, "set", nil, "set a limit: NAME=AMOUNT (cents)")
	cmd.Flags().StringArrayVar(&unset, "unset", nil, "remove a limit by NAME")
	return cmd
}

// period is a flag's length of time back from now: a Go duration (12h,
// 90m) or a number of days (30d).
type period time.Duration

func (p *period) String() string {
	if *p == 0 {
		return ""
	}
	d := time.Duration(*p)
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}

func (p *period) Set(s string) error {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a number of days such as 30d", s)
		}
		*p = period(time.Duration(n) * 24 * time.Hour)
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%q is not a period such as 30d or 12h", s)
	}
	*p = period(d)
	return nil
}

func (p *period) Type() string { return "period" }

// start is when the period began; the zero time for none (everything).
func (p period) start() time.Time {
	if p == 0 {
		return time.Time{}
	}
	return time.Now().Add(-time.Duration(p))
}
