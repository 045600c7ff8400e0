package risk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"github.com/tenurehq/tenure/config"
)

// Policy is a worker's risk policy: the live rule set, which decides, the
// shadow rule set, which is only logged, and how long an operator has for
// a manual review. The rule sets come from risk.rules_file and
// risk.shadow_rules_file (the live one from the risk.* settings when no
// file is named); Reload reads the files again and replaces a set only by
// one that compiles.
type Policy struct {
	// ManualDeadline is how long an operator has to decide an offer the
	// rules left to them.
	ManualDeadline time.Duration
	live, shadow   source
}

// source is where one rule set comes from and the set in force.
type source struct {
	// file is empty for the live default and for no shadow.
	file string
	set  atomic.Pointer[RuleSet]
}

// LoadPolicy loads the rule sets the configuration names; a file that is
// missing or does not compile refuses the start, naming the rule and the
// position of each problem.
func LoadPolicy(c config.RiskConfig) (*Policy, error) {
	p := &Policy{ManualDeadline: c.ManualReviewDeadline}
	p.live.file, p.shadow.file = c.RulesFile, c.ShadowRulesFile
	live, err := DefaultRuleSet(c)
	if c.RulesFile != "" {
		live, err = ReadRuleSet(c.RulesFile)
	}
	if err != nil {
		return nil, fmt.Errorf("risk.rules_file (%s): %w", config.EnvName("risk.rules_file"), err)
	}
	p.live.set.Store(live)
	if c.ShadowRulesFile != "" {
		shadow, err := ReadRuleSet(c.ShadowRulesFile)
		if err != nil {
			return nil, fmt.Errorf("risk.shadow_rules_file (%s): %w", config.EnvName("risk.shadow_rules_file"), err)
		}
		p.shadow.set.Store(shadow)
	}
	return p, nil
}

// ReadRuleSet reads and compiles a rule set file.
func ReadRuleSet(file string) (*RuleSet, error) {
	source, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return ParseRuleSet(file, source)
}

// Live is the rule set that decides.
func (p *Policy) Live() *RuleSet { return p.live.set.Load() }

// Shadow is the rule set evaluated beside the live one; nil for none.
func (p *Policy) Shadow() *RuleSet { return p.shadow.set.Load() }

// Decide evaluates a snapshot with the live rule set, and with the shadow
// set when there is one (nil otherwise).
func (p *Policy) Decide(snap Snapshot) (live Decision, shadow *Decision) {
	live = p.Live().Evaluate(snap)
	if s := p.Shadow(); s != nil {
		d := s.Evaluate(snap)
		shadow = &d
	}
	return live, shadow
}

// Reload reads the rule set files again. A file whose text changed
// replaces its set when it compiles; when it does not (or cannot be read)
// the set in force stays and the error says why. It answers the rule sets
// it replaced, by their new version.
func (p *Policy) Reload() (replaced []string, err error) {
	var errs []error
	for _, s := range []*source{&p.live, &p.shadow} {
		if s.file == "" {
			continue
		}
		set, err := ReadRuleSet(s.file)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s kept in force: %w", s.set.Load().Version, err))
			continue
		}
		if old := s.set.Load(); old == nil || !bytes.Equal(old.Source, set.Source) {
			s.set.Store(set)
			replaced = append(replaced, set.Version)
		}
	}
	return replaced, errors.Join(errs...)
}

// Watch reloads the rule set files every interval until ctx ends, logging
// each replacement and each file refused. interval 0 watches nothing.
func (p *Policy) Watch(ctx context.Context, interval time.Duration, logger *slog.Logger) {
	if interval <= 0 || (p.live.file == "" && p.shadow.file == "") {
		return
	}
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			replaced, err := p.Reload()
			for _, version := range replaced {
				logger.InfoContext(ctx, "risk rule set loaded", "version", version)
			}
			if err != nil {
				logger.ErrorContext(ctx, "risk rule set refused; the previous one stays in force", "error", err)
			}
		}
	}
}
