package risk

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// ruleFile writes a rule set file of one rule declining above limit.
func ruleFile(t *testing.T, path, version, limit string) {
	t.Helper()
	source := "version: " + version + "\nrules:\n  - id: cap\n    when: offer.total_net > " + limit +
		"\n    outcome: decline\n    reason: " + reasonYAML + "\ndefault: {outcome: accept, reason: " + reasonYAML + "}\n"
	if err := os.WriteFile(path, []byte(source), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Without a file the settings' default decides; a file replaces it, and a
// shadow file adds the shadow set.
func TestLoadPolicy(t *testing.T) {
	p, err := LoadPolicy(settings())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Live().Version, "default-") || p.Shadow() != nil || p.ManualDeadline != settings().ManualReviewDeadline {
		t.Errorf("without files: live %s, shadow %v", p.Live().Version, p.Shadow())
	}
	dir := t.TempDir()
	c := settings()
	c.RulesFile, c.ShadowRulesFile = filepath.Join(dir, "live.yaml"), filepath.Join(dir, "shadow.yaml")
	ruleFile(t, c.RulesFile, "live-1", "100")
	ruleFile(t, c.ShadowRulesFile, "shadow-1", "10")
	p, err = LoadPolicy(c)
	if err != nil {
		t.Fatal(err)
	}
	live, shadow := p.Decide(Snapshot{Offer: Offer{TotalNet: 50}})
	if live.Outcome != Accept || live.RuleSetVersion != "live-1" || shadow == nil || shadow.Outcome != Decline || shadow.RuleSetVersion != "shadow-1" {
		t.Errorf("live %+v, shadow %+v", live, shadow)
	}
}

// A bad or missing file refuses the start, naming the setting, the rule
// and the position.
func TestLoadPolicyRefusesABadFile(t *testing.T) {
	dir := t.TempDir()
	c := settings()
	c.RulesFile = filepath.Join(dir, "live.yaml")
	ruleFile(t, c.RulesFile, "v1", `"a lot"`)
	_, err := LoadPolicy(c)
	if err == nil || !strings.Contains(err.Error(), "risk.rules_file (TENURE_RISK_RULES_FILE): "+c.RulesFile+`:4:27: rule "cap": found no matching overload`) {
		t.Errorf("got %v", err)
	}
	c.RulesFile = ""
	c.ShadowRulesFile = filepath.Join(dir, "missing.yaml")
	if _, err := LoadPolicy(c); err == nil || !strings.Contains(err.Error(), "risk.shadow_rules_file (TENURE_RISK_SHADOW_RULES_FILE)") {
		t.Errorf("a missing shadow file: %v", err)
	}
}

// Reloading replaces a changed file's set when it compiles; a file that
// does not compile (or went missing) leaves the set in force and says why.
func TestReloadKeepsThePreviousSetWhenTheFileIsBad(t *testing.T) {
	c := settings()
	c.RulesFile = filepath.Join(t.TempDir(), "live.yaml")
	ruleFile(t, c.RulesFile, "v1", "100")
	p, err := LoadPolicy(c)
	if err != nil {
		t.Fatal(err)
	}
	if replaced, err := p.Reload(); err != nil || len(replaced) != 0 {
		t.Errorf("an unchanged file: replaced %v, %v", replaced, err)
	}
	ruleFile(t, c.RulesFile, "v2", "undefined_variable")
	replaced, err := p.Reload()
	if err == nil || len(replaced) != 0 || !strings.Contains(err.Error(), `v1 kept in force: `+c.RulesFile+`:4:29: rule "cap": undeclared reference to 'undefined_variable'`) {
		t.Errorf("a bad file: replaced %v, %v", replaced, err)
	}
	if p.Live().Version != "v1" {
		t.Errorf("the set in force is %s", p.Live().Version)
	}
	ruleFile(t, c.RulesFile, "v3", "10")
	if replaced, err := p.Reload(); err != nil || len(replaced) != 1 || replaced[0] != "v3" || p.Live().Version != "v3" {
		t.Errorf("a good file: replaced %v, %v, in force %s", replaced, err, p.Live().Version)
	}
	if err := os.Remove(c.RulesFile); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Reload(); err == nil || p.Live().Version != "v3" {
		t.Errorf("a removed file: %v, in force %s", err, p.Live().Version)
	}
}

// A running worker's watch loads a changed file and, when the next change
// does not compile, logs its refusal and keeps the set in force.
func TestWatchReloadsTheFiles(t *testing.T) {
	c := settings()
	c.RulesFile = filepath.Join(t.TempDir(), "live.yaml")
	ruleFile(t, c.RulesFile, "v1", "100")
	p, err := LoadPolicy(c)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, stop := context.WithCancel(t.Context())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		p.Watch(ctx, 10*time.Millisecond, slog.New(slog.NewTextHandler(&logs, nil)))
	}()
	defer func() { stop(); <-watched }()
	until := func(what string, done func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !done(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s did not happen; logged:\n%s", what, logs.String())
			}
		}
	}
	ruleFile(t, c.RulesFile, "v2", "200")
	until("loading v2", func() bool { return p.Live().Version == "v2" })
	ruleFile(t, c.RulesFile, "v3", "nonsense")
	until("refusing v3", func() bool { return strings.Contains(logs.String(), "risk rule set refused") })
	if p.Live().Version != "v2" || !strings.Contains(logs.String(), "risk rule set loaded") {
		t.Errorf("in force %s; logged:\n%s", p.Live().Version, logs.String())
	}
}

// syncBuffer is a buffer a logger writes from another goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
