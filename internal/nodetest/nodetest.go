// Package nodetest prepares the Node.js side of the tests that drive a server with a third-party
// SOAP toolkit (the npm soap package): it finds node and installs a test directory's pinned
// node_modules with npm ci, once. It is for tests only, and it fails the test — never skips it —
// when node or npm is missing.
package nodetest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Node returns the path of node, after making sure dir (a directory with a package-lock.json
// that pins the soap package) has its node_modules installed.
func Node(ctx context.Context, t testing.TB, dir string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed: this test runs the npm soap package in %s (%v)", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "soap", "package.json")); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Fatalf("npm is not installed: needed once to install %s/node_modules (%v)", dir, err)
		}
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	return node
}
