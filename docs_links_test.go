package tenure

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// Every relative link of the repository's Markdown files (README.md,
// CONTRIBUTING.md, the guides and decision records under docs/) leads to a
// file that exists, and every #anchor to a heading of its target or an
// explicit anchor there. External links are not fetched.
func TestDocLinksResolve(t *testing.T) {
	docs := markdownFiles(t)
	for _, must := range []string{"README.md", "CONTRIBUTING.md", "docs/README.md", "docs/decisions/README.md"} {
		if !slices.Contains(docs, must) {
			t.Errorf("%s is missing", must)
		}
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		anchors[path] = docAnchors(string(text))
		return anchors[path]
	}
	links := 0
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range docLinks(string(text)) {
			links++
			if err := checkLink(doc, l.target, anchorsOf); err != nil {
				t.Errorf("%s:%d: link %q: %v", doc, l.line, l.target, err)
			}
		}
	}
	if links < 100 {
		t.Errorf("only %d links found in %d files: the parser misses links", links, len(docs))
	}
}

// The README is a front page: what Tenure is, the two commands, a
// walk-through, the folders and links; everything else lives in the guides.
func TestDocReadmeIsAFrontPage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(readme), "\n"); lines > 250 {
		t.Errorf("README.md has %d lines: move what is not a front page's into a guide under docs/ (at most 250)", lines)
	}
}

// GitHub names a heading's anchor by its text: lower-case, spaces to
// hyphens, punctuation dropped, inline markup reduced to its text, and a
// repeated name numbered -1, -2, ...
func TestDocAnchorsFollowGitHubsSlugs(t *testing.T) {
	text := "# Tenure\n\n## Five minutes: from a token to a completed order\n\n" +
		"```sh\n# not a heading\n```\n\n## The API reference at `/docs`\n\n### Retries\n\n## Retries\n\n" +
		"## Layers: cmd → api\n\n## [Linked](x.md) *and* emphasised\n\n#### Limits and throttling ##\n\n" +
		`<a name="explicit"></a>` + "\n\nSetext heading\n--------------\n"
	got := docAnchors(text)
	want := []string{"tenure", "five-minutes-from-a-token-to-a-completed-order", "the-api-reference-at-docs",
		"retries", "retries-1", "layers-cmd--api", "linked-and-emphasised", "limits-and-throttling", "explicit",
		"setext-heading"}
	for _, w := range want {
		if !got[w] {
			t.Errorf("no anchor %q in %v", w, got)
		}
	}
	if got["not-a-heading"] || len(got) != len(want) {
		t.Errorf("anchors %v, want exactly %v", got, want)
	}
}

// markdownFiles lists the repository's Markdown files, leaving out hidden
// folders (.git, .tenure), installed packages and test data.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".md") {
			out = append(out, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// docLink is a link's target and the line it is written on.
type docLink struct {
	target string
	line   int
}

var (
	// inlineLink matches [text](target) and ![alt](target), with an
	// optional title after the target.
	inlineLink = regexp.MustCompile(`!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)`)
	// referenceLink matches a reference definition: [label]: target.
	referenceLink = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`)
	codeSpan      = regexp.MustCompile("`+[^`]*`+")
	// urlScheme starts an external link (http:, https:, mailto:).
	urlScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// docLinks lists the links of a Markdown text outside code blocks and code
// spans.
func docLinks(text string) []docLink {
	var out []docLink
	for i, line := range proseLines(text) {
		if line == "" {
			continue
		}
		line = codeSpan.ReplaceAllString(line, "")
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			out = append(out, docLink{strings.Trim(m[1], "<>"), i + 1})
		}
		if m := referenceLink.FindStringSubmatch(line); m != nil {
			out = append(out, docLink{strings.Trim(m[1], "<>"), i + 1})
		}
	}
	return out
}

// proseLines is the text's lines with those of fenced code blocks blanked,
// so line numbers stay those of the file.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
			lines[i] = ""
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			for strings.HasPrefix(trimmed[len(fence):], fence[:1]) {
				fence += fence[:1]
			}
			lines[i] = ""
		}
	}
	return lines
}

var (
	atxHeading    = regexp.MustCompile(`^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$`)
	setextLine    = regexp.MustCompile(`^ {0,3}(=+|-+)\s*$`)
	htmlAnchor    = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
	markupLink    = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	markupSymbols = strings.NewReplacer("`", "", "*", "")
)

// docAnchors is the set of anchors a Markdown text offers: its headings'
// slugs as GitHub makes them, and explicit <a name> or <a id> anchors.
func docAnchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	add := func(heading string) {
		slug := slugOf(heading)
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	lines := proseLines(text)
	for i, line := range lines {
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			add(m[1])
			continue
		}
		if i > 0 && setextLine.MatchString(line) && strings.TrimSpace(lines[i-1]) != "" &&
			!strings.HasPrefix(strings.TrimSpace(lines[i-1]), "|") && !strings.HasPrefix(strings.TrimSpace(lines[i-1]), "- ") {
			add(lines[i-1])
		}
	}
	return out
}

// slugOf is GitHub's anchor of a heading: its text without markup,
// lower-cased, letters, digits, hyphens and underscores kept, spaces made
// hyphens, everything else dropped.
func slugOf(heading string) string {
	text := markupSymbols.Replace(markupLink.ReplaceAllString(strings.TrimSpace(heading), "$1"))
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkLink resolves a link of the document doc: an external link passes
// unchecked; a relative one must name an existing file or folder, and its
// anchor a heading or explicit anchor of the Markdown file it names.
func checkLink(doc, target string, anchorsOf func(string) map[string]bool) error {
	if urlScheme.MatchString(target) {
		return nil // http(s), mailto: not fetched
	}
	path, anchor, _ := strings.Cut(target, "#")
	file := doc
	if path != "" {
		if strings.HasPrefix(path, "/") {
			return fmt.Errorf("an absolute path breaks outside GitHub: make it relative")
		}
		file = filepath.ToSlash(filepath.Join(filepath.Dir(doc), filepath.FromSlash(path)))
		info, err := os.Stat(file)
		if err != nil {
			return fmt.Errorf("%s does not exist", file)
		}
		if info.IsDir() {
			if anchor != "" {
				return fmt.Errorf("%s is a folder and has no anchors", file)
			}
			return nil
		}
	}
	if anchor == "" {
		return nil
	}
	if !strings.HasSuffix(file, ".md") {
		return fmt.Errorf("%s is not Markdown and has no anchors", file)
	}
	if !anchorsOf(file)[anchor] {
		return fmt.Errorf("%s has no heading or anchor %q", file, anchor)
	}
	return nil
}
