package docs

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the project's module path, the prefix of its own packages.
const module = "flightalliance/"

// goPackage is what `go list -json` says of a package, the part these tests read.
type goPackage struct {
	ImportPath string
	Imports    []string // direct imports of its non-test files
	Deps       []string // every package it depends on
}

// listPackages runs `go list -json` over the module: every package, its direct
// imports (test files excluded) and its transitive dependencies.
func listPackages(t *testing.T) []goPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p goPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	return pkgs
}

// layerRow is a row of architecture.md's table: a package and the project packages it may import.
var layerRow = regexp.MustCompile("^\\| `([a-z0-9/]+)` \\|[^|]*\\| ([^|]*) \\|\\s*$")

// mayImport reads architecture.md's table of packages: for each, the project packages its
// non-test code may import ("—" for none).
func mayImport(t *testing.T) map[string][]string {
	t.Helper()
	body, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string][]string{}
	for _, line := range strings.Split(string(body), "\n") {
		m := layerRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var allowed []string
		for _, name := range regexp.MustCompile("`([a-z0-9/]+)`").FindAllStringSubmatch(m[2], -1) {
			allowed = append(allowed, name[1])
		}
		rules[m[1]] = allowed
	}
	if len(rules) < 10 {
		t.Fatalf("architecture.md's table of packages has %d rows", len(rules))
	}
	return rules
}

// TestArchitectureTable: docs/architecture.md names every package of the module, and what each
// imports from the project is what its row allows — the table is the layering, checked.
func TestArchitectureTable(t *testing.T) {
	rules := mayImport(t)
	seen := map[string]bool{}
	for _, p := range listPackages(t) {
		name := strings.TrimPrefix(p.ImportPath, module)
		seen[name] = true
		allowed, ok := rules[name]
		if !ok {
			t.Errorf("docs/architecture.md has no row for the package %s", name)
			continue
		}
		for _, imp := range p.Imports {
			if own, ok := strings.CutPrefix(imp, module); ok && !slices.Contains(allowed, own) {
				t.Errorf("%s imports %s, which its row of docs/architecture.md does not allow", name, own)
			}
		}
	}
	for name := range rules {
		if !seen[name] {
			t.Errorf("docs/architecture.md has a row for %s, which is no package of the module", name)
		}
	}
}

// pureCores are the packages that hold decisions as pure functions: values in, values out. They
// must not import the network, the file system, etcd, a metrics registry or the SOAP client
// library. (search/merge takes the delegates' answers as soap's wire types — values; it calls
// nothing of soap's.)
var pureCores = []string{"contract", "alliance/placement", "alliance/trip", "alliance/booking", "alliance/flight", "search/merge"}

// ioImports are the imports a pure core must not have: a prefix ending in "/" covers a tree.
var ioImports = []string{"net", "net/", "os", "os/", "io/fs", "go.etcd.io/", "google.golang.org/grpc", "github.com/prometheus/",
	"github.com/tiaguinho/gosoap", module + "coord", module + "internal/"}

func TestPureCoresDoNoIO(t *testing.T) {
	for _, p := range listPackages(t) {
		name := strings.TrimPrefix(p.ImportPath, module)
		if !slices.Contains(pureCores, name) {
			continue
		}
		for _, imp := range p.Imports {
			for _, io := range ioImports {
				if imp == io || strings.HasSuffix(io, "/") && strings.HasPrefix(imp, io) || strings.HasPrefix(imp, io+"/") {
					t.Errorf("%s is a pure core but imports %s", name, imp)
				}
			}
		}
	}
}

// TestCoordIsClientOnly: coord holds recipes over an etcd client; the embedded member (etcd's
// server) is coord/member's alone, as etcd itself draws the line between client/v3/concurrency
// and server/embed.
func TestCoordIsClientOnly(t *testing.T) {
	for _, p := range listPackages(t) {
		if p.ImportPath != module+"coord" {
			continue
		}
		for _, dep := range p.Deps {
			if strings.HasPrefix(dep, "go.etcd.io/etcd/server/") {
				t.Fatalf("coord depends on %s; the embedded member belongs in coord/member", dep)
			}
		}
		return
	}
	t.Fatal("no package coord")
}

// TestServersApart: the search server's packages import nothing of the airline server's, nor the
// reverse; they meet in soap and contract. search/internal/searchtest, test support that builds
// reference answers with the airline's trip builder, is the one exception.
func TestServersApart(t *testing.T) {
	for _, p := range listPackages(t) {
		name := strings.TrimPrefix(p.ImportPath, module)
		for _, imp := range p.Imports {
			own, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			searchSide := name == "search" || strings.HasPrefix(name, "search/")
			allianceSide := name == "alliance" || strings.HasPrefix(name, "alliance/")
			switch {
			case searchSide && name != "search/internal/searchtest" && (own == "alliance" || strings.HasPrefix(own, "alliance/")):
				t.Errorf("%s (the search server) imports %s (the airline server)", name, own)
			case allianceSide && (own == "search" || strings.HasPrefix(own, "search/")):
				t.Errorf("%s (the airline server) imports %s (the search server)", name, own)
			}
		}
	}
}
