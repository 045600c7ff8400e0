package tenure

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the import path of Tenure's packages.
const module = "github.com/tenurehq/tenure"

// layers are Tenure's layers from the bottom up, each with the folders it
// is made of ("x/..." is x and everything below it). A package imports
// packages of its own layer or of the layers below, never above. A package
// takes its layer from the folder it lives in: a new one needs no entry
// here, only the right folder.
var layers = []struct {
	name     string
	packages []string
}{
	{"db", []string{"db/..."}},
	{"foundation", []string{"foundation/..."}},
	{"domain", []string{"domain/...", "config"}},
	{"activities", []string{"activities"}},
	{"workflows", []string{"workflows/..."}},
	{"services", []string{"services"}},
	// The API serves the checkout page's assets and the API reference.
	{"api", []string{"api/...", "web/..."}},
	// The command, and the root package whose tests check the repository.
	{"cmd", []string{"cmd/...", "."}},
	// Test tooling and benchmarks may compose anything; nothing above
	// imports them.
	{"internal", []string{"internal/..."}},
}

// layerOf is the index of a package's layer, or -1 when it has none.
func layerOf(pkg string) int {
	for i, l := range layers {
		for _, p := range l.packages {
			if base, ok := strings.CutSuffix(p, "/..."); ok && (pkg == base || strings.HasPrefix(pkg, base+"/")) {
				return i
			}
			if pkg == p {
				return i
			}
		}
	}
	return -1
}

// folderOf is the folder a package belongs to: its top folder, or for the
// folders that group unrelated packages (domain, foundation, internal's
// groups) the package's own folder under them.
func folderOf(pkg string) string {
	parts := strings.Split(pkg, "/")
	switch {
	case parts[0] == "internal" && len(parts) > 2:
		return strings.Join(parts[:3], "/")
	case (parts[0] == "domain" || parts[0] == "foundation") && len(parts) > 1:
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// sourceImports calls visit with the import paths of every non-test Go
// file below root (hidden folders, testdata and bin left out).
func sourceImports(t *testing.T, root string, visit func(path string, imports []string)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		imports := make([]string, len(f.Imports))
		for i, imp := range f.Imports {
			imports[i], _ = strconv.Unquote(imp.Path.Value)
		}
		visit(path, imports)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// moduleImports maps every package of the repository (by directory) to the
// packages of the module its non-test files import.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	sourceImports(t, ".", func(path string, imports []string) {
		pkg := filepath.ToSlash(filepath.Dir(path))
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, p := range imports {
			if p == module {
				p = module + "/."
			}
			if rest, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(out[pkg], rest) {
				out[pkg] = append(out[pkg], rest)
			}
		}
	})
	return out
}

// Dependencies point one way: cmd → api → services → workflows →
// activities → domain → db. No package imports one of a layer above it,
// nothing but api and what composes the stack imports api/..., and no two
// top folders import each other, however indirectly.
func TestDependenciesPointOneWay(t *testing.T) {
	if _, err := os.Stat("go.mod"); err != nil {
		t.Fatal("the test runs at the repository's root")
	}
	imports := moduleImports(t)
	apiLayer := layerOf("api")
	folders := map[string]map[string]bool{}
	for pkg, deps := range imports {
		own := layerOf(pkg)
		if own < 0 {
			t.Errorf("package %s has no layer: give it one in layers_test.go", pkg)
			continue
		}
		for _, dep := range deps {
			theirs := layerOf(dep)
			switch {
			case theirs < 0:
				t.Errorf("%s imports %s, which has no layer", pkg, dep)
			case theirs > own:
				t.Errorf("%s (%s) imports %s of the layer above, %s", pkg, layers[own].name, dep, layers[theirs].name)
			case theirs == apiLayer && own < apiLayer:
				t.Errorf("%s imports %s: only the API and what composes the stack may", pkg, dep)
			}
			if from, to := folderOf(pkg), folderOf(dep); from != to {
				if folders[from] == nil {
					folders[from] = map[string]bool{}
				}
				folders[from][to] = true
			}
		}
	}
	if loop := folderLoop(folders); loop != nil {
		t.Errorf("top folders import each other: %s", strings.Join(loop, " → "))
	}
}

// behindServices are what the API reaches only through services: storage,
// the activities, the workflows and the Temporal SDK.
var behindServices = []string{module + "/db", module + "/activities", module + "/workflows", "go.temporal.io"}

// behindTheDoor reports whether an import path is one of behindServices
// or a package below one.
func behindTheDoor(importPath string) bool {
	for _, p := range behindServices {
		if importPath == p || strings.HasPrefix(importPath, p+"/") {
			return true
		}
	}
	return false
}

// services is the API's only door into the workflows and storage: no
// package under api/ imports db/..., activities, workflows/... or the
// Temporal SDK. Handlers render and translate what the services return.
func TestServicesAreTheAPIsDoor(t *testing.T) {
	sourceImports(t, "api", func(path string, imports []string) {
		for _, p := range imports {
			if behindTheDoor(p) {
				t.Errorf("%s imports %s: services is the door from api into storage, workflows and Temporal; ask a service", path, p)
			}
		}
	})
}

// folderLoop is a cycle of the folder graph, or nil.
func folderLoop(edges map[string]map[string]bool) []string {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(string) []string
	visit = func(n string) []string {
		state[n] = open
		path = append(path, n)
		next := make([]string, 0, len(edges[n]))
		for m := range edges[n] {
			next = append(next, m)
		}
		slices.Sort(next)
		for _, m := range next {
			switch state[m] {
			case open:
				i := slices.Index(path, m)
				return append(slices.Clone(path[i:]), m)
			case unseen:
				if loop := visit(m); loop != nil {
					return loop
				}
			}
		}
		path = path[:len(path)-1]
		state[n] = done
		return nil
	}
	nodes := make([]string, 0, len(edges))
	for n := range edges {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	for _, n := range nodes {
		if state[n] == unseen {
			if loop := visit(n); loop != nil {
				return loop
			}
		}
	}
	return nil
}

// The check finds what it guards against: a layer inversion and a loop.
func TestLayerCheckFindsViolations(t *testing.T) {
	if got := layerOf("workflows/offer"); got < 0 || layers[got].name != "workflows" {
		t.Errorf("workflows/offer is in layer %d", got)
	}
	if layerOf("services") <= layerOf("workflows/offer") || layerOf("activities") >= layerOf("workflows") {
		t.Error("the layers are out of order")
	}
	if layerOf("newpackage") != -1 {
		t.Error("an undeclared package has a layer")
	}
	loop := folderLoop(map[string]map[string]bool{"a": {"b": true}, "b": {"c": true}, "c": {"a": true}})
	if fmt.Sprint(loop) != "[a b c a]" {
		t.Errorf("loop %v", loop)
	}
	if folderLoop(map[string]map[string]bool{"a": {"b": true}, "b": {"c": true}}) != nil {
		t.Error("a chain is no loop")
	}
	for path, behind := range map[string]bool{
		module + "/db/dbgen": true, module + "/workflows/offer": true, module + "/activities": true, "go.temporal.io/sdk/client": true,
		module + "/services": false, module + "/domain/offers": false, module + "/dbtools": false,
	} {
		if behindTheDoor(path) != behind {
			t.Errorf("behindTheDoor(%s) = %v", path, !behind)
		}
	}
}
