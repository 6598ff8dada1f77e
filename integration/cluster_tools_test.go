package integration

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// repoRoot is the module's root, where the Makefile and deploy/ are.
func repoRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// runTool runs one of the project's command-line tools (built for the test: alliancectl, flights)
// and fails the test with its output when it fails.
func runTool(t testing.TB, tool string, args ...string) string {
	t.Helper()
	bin := framework.Bin(tool)
	if _, err := os.Stat(bin); err != nil {
		build := exec.Command("go", "build", "-o", bin, "flightalliance/cmd/"+tool)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", tool, err, out)
		}
	}
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", tool, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func execCombinedOut(name string, args ...string) ([]byte, error) {
	return exec.Command(name, args...).CombinedOutput()
}

// clusterImages builds the image twice from this source with `make image`, under two tags, and
// removes them when the test ends: the suite upgrades from the first to the second.
func clusterImages(t *testing.T) (string, string) {
	t.Helper()
	root := repoRoot(t)
	var tags []string
	for _, v := range []string{"a", "b"} {
		tag := "flightalliance:test-" + v + "-" + time.Now().Format("150405")
		cmd := exec.Command("make", "-C", root, "image", "IMAGE="+tag)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make image IMAGE=%s: %v\n%s", tag, err, lastBytes(out, 4000))
		}
		tags = append(tags, tag)
		t.Cleanup(func() { _, _ = dockerOut(context.Background(), nil, "rmi", tag) })
	}
	return tags[0], tags[1]
}
