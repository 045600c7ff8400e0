package risk

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Backtest compares the live decisions of the log with a candidate's on
// the same snapshots: how many of each live outcome the candidate decides
// each way (the confusion table), and the decisions that would flip.
type Backtest struct {
	// Candidate names what was compared: a rule set's version, or the
	// shadow rule sets' as logged.
	Candidate string
	Since     time.Time
	// Decisions counts the decisions compared.
	Decisions int
	// Table counts decisions by live outcome, then candidate outcome.
	Table map[Outcome]map[Outcome]int
	// Flips are the decisions the candidate decides otherwise, in the
	// log's order.
	Flips []Flip
	// LiveVersions are the live rule sets' versions seen.
	LiveVersions []string
	// Errors counts candidate decisions whose condition failed.
	Errors int
	// OlderSnapshots counts snapshots of an older version than this
	// code's, which lack the variables added since (zero values).
	OlderSnapshots int
	// Unshadowed counts decisions without a shadow decision (shadow
	// backtests only).
	Unshadowed int
}

// Flip is a decision the candidate decides otherwise: the rule that
// decided live and the one that would decide instead.
type Flip struct {
	OfferID   uuid.UUID
	SellerID  uuid.UUID
	DecidedAt time.Time
	Live      Decision
	Candidate Decision
}

// NewBacktest starts a comparison of the log since a time with candidate.
func NewBacktest(candidate string, since time.Time) *Backtest {
	b := &Backtest{Candidate: candidate, Since: since, Table: map[Outcome]map[Outcome]int{}}
	for _, o := range outcomes {
		b.Table[o] = map[Outcome]int{}
	}
	return b
}

// Add counts one logged decision against the candidate's decision on its
// snapshot.
func (b *Backtest) Add(l Logged, candidate Decision) {
	b.Decisions++
	if l.Snapshot.Version < SnapshotVersion {
		b.OlderSnapshots++
	}
	if !slices.Contains(b.LiveVersions, l.Decision.RuleSetVersion) {
		b.LiveVersions = append(b.LiveVersions, l.Decision.RuleSetVersion)
	}
	if candidate.Error != "" {
		b.Errors++
	}
	b.Table[l.Decision.Outcome][candidate.Outcome]++
	if candidate.Outcome != l.Decision.Outcome {
		b.Flips = append(b.Flips, Flip{OfferID: l.OfferID, SellerID: l.SellerID, DecidedAt: l.DecidedAt, Live: l.Decision, Candidate: candidate})
	}
}

// Replay reads the decision log from since on, in the order it was
// written, a page at a time, handing each decision to each.
func Replay(ctx context.Context, q *dbgen.Queries, since time.Time, each func(Logged) error) error {
	const pageSize = 2000
	after := dbgen.ListRiskDecisionsSinceParams{Since: since, AfterAt: time.Time{}, AfterID: uuid.Nil, PageSize: pageSize}
	for {
		rows, err := q.ListRiskDecisionsSince(ctx, after)
		if err != nil {
			return err
		}
		for _, row := range rows {
			l, err := Decode(row)
			if err != nil {
				return err
			}
			if err := each(l); err != nil {
				return err
			}
		}
		if len(rows) < pageSize {
			return nil
		}
		last := rows[len(rows)-1]
		after.AfterAt, after.AfterID = last.DecidedAt, last.ID
	}
}

// BacktestRuleSet replays the log since a time through a rule set.
func BacktestRuleSet(ctx context.Context, q *dbgen.Queries, rs *RuleSet, since time.Time) (*Backtest, error) {
	b := NewBacktest(rs.Version, since)
	err := Replay(ctx, q, since, func(l Logged) error {
		b.Add(l, rs.Evaluate(l.Snapshot))
		return nil
	})
	return b, err
}

// BacktestShadow compares the log's live decisions since a time with the
// shadow decisions logged beside them.
func BacktestShadow(ctx context.Context, q *dbgen.Queries, since time.Time) (*Backtest, error) {
	b := NewBacktest("", since)
	var versions []string
	err := Replay(ctx, q, since, func(l Logged) error {
		if l.Shadow == nil {
			b.Unshadowed++
			return nil
		}
		if !slices.Contains(versions, l.Shadow.RuleSetVersion) {
			versions = append(versions, l.Shadow.RuleSetVersion)
		}
		b.Add(l, *l.Shadow)
		return nil
	})
	b.Candidate = "the shadow rule set (" + strings.Join(versions, ", ") + ")"
	return b, err
}

// Write prints the report: what was compared, the confusion table (rows
// live, columns candidate) and at most maxFlips of the flips (all when
// maxFlips < 0), each with the rule that decided live and the rule that
// would decide.
func (b *Backtest) Write(w io.Writer, maxFlips int) error {
	fmt.Fprintf(w, "Backtest of %s against the live decisions since %s\n", b.Candidate, b.Since.UTC().Format(time.RFC3339))
	fmt.Fprintf(w, "%d decisions (live rule sets: %s)\n", b.Decisions, strings.Join(b.LiveVersions, ", "))
	if b.Unshadowed > 0 {
		fmt.Fprintf(w, "%d decisions had no shadow rule set and are not compared\n", b.Unshadowed)
	}
	if b.OlderSnapshots > 0 {
		fmt.Fprintf(w, "%d snapshots are of an older version: variables added since read as zero\n", b.OlderSnapshots)
	}
	if b.Errors > 0 {
		fmt.Fprintf(w, "%d candidate decisions hit a condition that failed (rule_error, manual)\n", b.Errors)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "live \\ candidate\t")
	for _, o := range outcomes {
		fmt.Fprintf(tw, "%s\t", o)
	}
	fmt.Fprintln(tw, "total\t")
	for _, live := range outcomes {
		fmt.Fprintf(tw, "%s\t", live)
		total := 0
		for _, candidate := range outcomes {
			fmt.Fprintf(tw, "%d\t", b.Table[live][candidate])
			total += b.Table[live][candidate]
		}
		fmt.Fprintf(tw, "%d\t\n", total)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d offers would flip\n", len(b.Flips))
	if len(b.Flips) == 0 {
		return nil
	}
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DECIDED\tOFFER\tSELLER\tLIVE\tCANDIDATE\tCANDIDATE REASON")
	for i, f := range b.Flips {
		if maxFlips >= 0 && i == maxFlips {
			fmt.Fprintf(tw, "… and %d more\t\t\t\t\t\n", len(b.Flips)-maxFlips)
			break
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s by %s\t%s by %s\t%s\n", f.DecidedAt.UTC().Format(time.RFC3339), f.OfferID, f.SellerID,
			f.Live.Outcome, f.Live.RuleID, f.Candidate.Outcome, f.Candidate.RuleID, f.Candidate.Reason.Code)
	}
	return tw.Flush()
}
