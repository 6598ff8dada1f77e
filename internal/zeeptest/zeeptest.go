// Package zeeptest finds the Python that runs the tests' third-party SOAP client: zeep, a strict
// WSDL-driven toolkit, from Debian's python3-zeep (which `make deps` installs). It is for tests
// only, and it fails the test — never skips it — when zeep is missing.
package zeeptest

import (
	"context"
	"os/exec"
	"testing"
)

// Python is Debian's interpreter, the one python3-zeep installs into (a python3 earlier on PATH,
// from pyenv say, would not see it).
const Python = "/usr/bin/python3"

// Command is Python running script (a path relative to dir) with args in dir, after checking that
// zeep imports.
func Command(ctx context.Context, t testing.TB, dir, script string, args ...string) *exec.Cmd {
	t.Helper()
	if out, err := exec.CommandContext(ctx, Python, "-c", "import zeep").CombinedOutput(); err != nil {
		t.Fatalf("%s cannot import zeep (`make deps` installs Debian's python3-zeep): %v\n%s", Python, err, out)
	}
	cmd := exec.CommandContext(ctx, Python, append([]string{script}, args...)...)
	cmd.Dir = dir
	return cmd
}
