package risk

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cel.dev/cel-go/cel"
	"gopkg.in/yaml.v3"
)

// RuleSet is a compiled rule set: its rules in order and the default that
// applies when none matches. It is immutable once parsed and safe for
// concurrent evaluation.
type RuleSet struct {
	// Version names the rule set in every decision it makes.
	Version string
	Rules   []Rule
	Default Verdict
	// Source is the YAML text it was parsed from.
	Source []byte
}

// Rule is one rule: when its condition holds, it decides.
type Rule struct {
	ID string
	// When is the CEL condition, a bool expression over the variables.
	When    string
	Outcome Outcome
	Reason  Reason
	program cel.Program
}

// Verdict is an outcome with its reason.
type Verdict struct {
	Outcome Outcome
	Reason  Reason
}

// DefaultRuleID is the rule id a decision by a rule set's default carries.
const DefaultRuleID = "default"

// MaxRules bounds the rules of one rule set.
const MaxRules = 1000

var (
	ruleID     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$`)
	reasonCode = regexp.MustCompile(`^[a-z][a-z0-9_]{0,99}$`)
	yamlLine   = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
)

// Problem is one thing wrong with a rule set: where (1-based line and
// column of its file), in which rule (empty outside one), and what.
type Problem struct {
	Line, Column int
	RuleID       string
	Message      string
}

// LoadError lists every problem of a rule set that cannot be loaded.
type LoadError struct {
	// Name is the file (or other source) the rule set came from.
	Name     string
	Problems []Problem
}

// Error is one line per problem: FILE:LINE:COLUMN: rule "ID": message.
func (e *LoadError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		where := e.Name
		if p.Line > 0 {
			where += fmt.Sprintf(":%d:%d", p.Line, p.Column)
		}
		if p.RuleID != "" {
			where += fmt.Sprintf(": rule %q", p.RuleID)
		}
		lines[i] = where + ": " + p.Message
	}
	return strings.Join(lines, "\n")
}

// ParseRuleSet reads and compiles a rule set written in the YAML format of
// docs/risk-rules.md; name says where it came from in error messages. It
// refuses a rule set with any problem, listing them all (*LoadError).
func ParseRuleSet(name string, source []byte) (*RuleSet, error) {
	p := &parser{name: name, source: source, set: &RuleSet{Source: source}}
	p.parse()
	if len(p.problems) > 0 {
		return nil, &LoadError{Name: name, Problems: p.problems}
	}
	return p.set, nil
}

// parser walks a rule set's YAML nodes, which know their positions.
type parser struct {
	name     string
	source   []byte
	set      *RuleSet
	problems []Problem
}

func (p *parser) problem(n *yaml.Node, rule, format string, args ...any) {
	p.problems = append(p.problems, Problem{Line: n.Line, Column: n.Column, RuleID: rule, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) parse() {
	var doc yaml.Node
	if err := yaml.Unmarshal(p.source, &doc); err != nil {
		msg := err.Error()
		line := 0
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		p.problems = append(p.problems, Problem{Line: line, Column: 1, Message: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")})
		return
	}
	if len(doc.Content) == 0 {
		p.problems = append(p.problems, Problem{Message: "the rule set is empty; it needs version, rules and default"})
		return
	}
	root := doc.Content[0]
	seen := p.fields(root, "", "the rule set", map[string]func(*yaml.Node){
		"version": func(n *yaml.Node) { p.set.Version = p.text(n, "", "version") },
		"rules":   p.rules,
		"default": func(n *yaml.Node) { p.set.Default = p.verdict(n, "", "default") },
	})
	for _, key := range []string{"version", "default"} {
		if !seen[key] && root.Kind == yaml.MappingNode {
			p.problem(root, "", "%s is missing", key)
		}
	}
}

// fields reads a mapping's keys with their handlers; any other key, or a
// key given twice, is a problem. It answers which keys it saw.
func (p *parser) fields(n *yaml.Node, rule, what string, handlers map[string]func(*yaml.Node)) map[string]bool {
	seen := map[string]bool{}
	if n.Kind != yaml.MappingNode {
		p.problem(n, rule, "%s must be a mapping of %s", what, keyList(handlers))
		return seen
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := n.Content[i], n.Content[i+1]
		handle, ok := handlers[key.Value]
		switch {
		case !ok:
			p.problem(key, rule, "unknown key %q in %s; the keys are %s", key.Value, what, keyList(handlers))
		case seen[key.Value]:
			p.problem(key, rule, "%s is given twice in %s", key.Value, what)
		default:
			seen[key.Value] = true
			handle(value)
		}
	}
	return seen
}

func keyList(handlers map[string]func(*yaml.Node)) string {
	keys := make([]string, 0, len(handlers))
	for k := range handlers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// text is a scalar's text as written (so version 2026-11-25 stays that
// text); empty text is a problem.
func (p *parser) text(n *yaml.Node, rule, what string) string {
	if n.Kind != yaml.ScalarNode || strings.TrimSpace(n.Value) == "" {
		p.problem(n, rule, "%s must be a non-empty text", what)
		return ""
	}
	return n.Value
}

func (p *parser) rules(n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.problem(n, "", "rules must be a list of rules")
		return
	}
	if len(n.Content) > MaxRules {
		p.problem(n, "", "a rule set has at most %d rules, this one has %d", MaxRules, len(n.Content))
		return
	}
	ids := map[string]bool{}
	for i, item := range n.Content {
		p.rule(item, fmt.Sprintf("rules[%d]", i), ids)
	}
}

func (p *parser) rule(n *yaml.Node, label string, ids map[string]bool) {
	var r Rule
	var when, id *yaml.Node
	// The id comes first in a well-written rule, but any order works:
	// problems found before it name the rule by its position.
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "id" {
				id = n.Content[i+1]
			}
		}
	}
	name := label
	if id != nil && id.Kind == yaml.ScalarNode && id.Value != "" {
		name = id.Value
	}
	seen := p.fields(n, name, label, map[string]func(*yaml.Node){
		"id": func(v *yaml.Node) {
			r.ID = p.text(v, name, "id")
			switch {
			case r.ID == "":
			case !ruleID.MatchString(r.ID):
				p.problem(v, name, "id must be letters, digits, '.', '_' or '-' (at most 100), starting with a letter or digit")
			case r.ID == DefaultRuleID:
				p.problem(v, name, "id %q is reserved for the rule set's default", DefaultRuleID)
			case ids[r.ID]:
				p.problem(v, name, "id %q is used by an earlier rule", r.ID)
			}
			ids[r.ID] = true
		},
		"when": func(v *yaml.Node) { when = v; r.When = p.text(v, name, "when") },
		"outcome": func(v *yaml.Node) {
			r.Outcome = p.outcome(v, name)
		},
		"reason": func(v *yaml.Node) { r.Reason = p.reason(v, name) },
	})
	for _, key := range []string{"id", "when", "outcome", "reason"} {
		if !seen[key] && n.Kind == yaml.MappingNode {
			p.problem(n, name, "%s is missing in %s", key, label)
		}
	}
	if r.When != "" {
		r.program = p.compile(when, name, r.When)
	}
	p.set.Rules = append(p.set.Rules, r)
}

func (p *parser) outcome(n *yaml.Node, rule string) Outcome {
	o := Outcome(p.text(n, rule, "outcome"))
	if o != "" && !slices.Contains(outcomes, o) {
		p.problem(n, rule, "outcome %q is not one of accept, decline, manual", o)
	}
	return o
}

func (p *parser) reason(n *yaml.Node, rule string) Reason {
	var r Reason
	seen := p.fields(n, rule, "reason", map[string]func(*yaml.Node){
		"code": func(v *yaml.Node) {
			r.Code = p.text(v, rule, "reason.code")
			if r.Code != "" && !reasonCode.MatchString(r.Code) {
				p.problem(v, rule, "reason.code %q must be lower-case letters, digits and '_', starting with a letter", r.Code)
			}
		},
		"en": func(v *yaml.Node) { r.EN = p.text(v, rule, "reason.en") },
		"de": func(v *yaml.Node) { r.DE = p.text(v, rule, "reason.de") },
		"nl": func(v *yaml.Node) { r.NL = p.text(v, rule, "reason.nl") },
	})
	for _, key := range []string{"code", "en", "de", "nl"} {
		if !seen[key] && n.Kind == yaml.MappingNode {
			p.problem(n, rule, "reason.%s is missing: every reason has a code and a text in en, de and nl", key)
		}
	}
	return r
}

func (p *parser) verdict(n *yaml.Node, rule, what string) Verdict {
	var v Verdict
	seen := p.fields(n, rule, what, map[string]func(*yaml.Node){
		"outcome": func(o *yaml.Node) { v.Outcome = p.outcome(o, DefaultRuleID) },
		"reason":  func(r *yaml.Node) { v.Reason = p.reason(r, DefaultRuleID) },
	})
	for _, key := range []string{"outcome", "reason"} {
		if !seen[key] && n.Kind == yaml.MappingNode {
			p.problem(n, DefaultRuleID, "%s is missing in %s", key, what)
		}
	}
	return v
}

// compile type-checks a condition; its problems are placed in the file
// where the condition's text can be followed there exactly, else at the
// condition with its own line and column.
func (p *parser) compile(n *yaml.Node, rule, condition string) cel.Program {
	env, err := environment()
	if err != nil {
		p.problem(n, rule, "the CEL environment: %v", err)
		return nil
	}
	ast, issues := env.Compile(condition)
	if issues != nil && issues.Err() != nil {
		for _, e := range issues.Errors() {
			line, column, exact := p.place(n, e.Location.Line(), e.Location.Column())
			msg := e.Message
			if !exact {
				msg = fmt.Sprintf("%s (at %d:%d of the condition)", msg, e.Location.Line(), e.Location.Column()+1)
			}
			p.problems = append(p.problems, Problem{Line: line, Column: column, RuleID: rule, Message: msg})
		}
		return nil
	}
	if !ast.OutputType().IsExactType(cel.BoolType) {
		p.problem(n, rule, "the condition is of type %s; it must be a bool", ast.OutputType())
		return nil
	}
	prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		p.problem(n, rule, "the condition cannot be planned: %v", err)
		return nil
	}
	return prg
}

// place maps a position in a condition (CEL's 1-based line, 0-based
// column) to its file: exactly where the condition's text stands in the
// file as it is (a plain or quoted condition on one line, a literal block
// `|`); otherwise (a folded or escaped condition) it answers the
// condition's start.
func (p *parser) place(n *yaml.Node, line, column int) (int, int, bool) {
	if n.Style == yaml.LiteralStyle {
		return n.Line + line, p.indent(n.Line+1) + column + 1, true
	}
	text := p.sourceLine(n.Line)
	start := n.Column - 1
	if n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle {
		start++
	}
	if line == 1 && start >= 0 && start <= len(text) && strings.HasPrefix(text[start:], n.Value) {
		return n.Line, start + column + 1, true
	}
	return n.Line, n.Column, false
}

// sourceLine is a (1-based) line of the source.
func (p *parser) sourceLine(line int) string {
	lines := strings.Split(string(p.source), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}

// indent is the number of leading spaces of a (1-based) line of the source.
func (p *parser) indent(line int) int {
	text := p.sourceLine(line)
	return len(text) - len(strings.TrimLeft(text, " "))
}
