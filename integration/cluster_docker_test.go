package integration

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// docker runs the docker CLI and returns its trimmed standard output, failing the test with its
// standard error when it fails.
func docker(t testing.TB, args ...string) string {
	t.Helper()
	out, err := dockerOut(context.Background(), nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// dockerOut runs a docker command (docker-compose when args[0] is "compose") with env added to
// the environment.
func dockerOut(ctx context.Context, env []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	name := "docker"
	if len(args) > 0 && args[0] == "compose" {
		name, args = "docker-compose", args[1:] // Debian's Compose: the docker-compose command
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, lastBytes(stderr.Bytes(), 4000))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// requireDocker fails the test, naming what is missing, unless a Docker engine answers and
// Compose is installed: the machines this project runs on have both, and a test that skipped
// would pass without testing anything.
func requireDocker(t testing.TB) {
	t.Helper()
	if _, err := dockerOut(context.Background(), nil, "version", "--format", "{{.Server.Version}}"); err != nil {
		t.Fatalf("this test runs the alliance in containers and needs a Docker engine: %v", err)
	}
	if _, err := exec.LookPath("docker-compose"); err != nil {
		t.Fatalf("this test drives deploy/compose with docker-compose (Debian's package), which is missing: %v", err)
	}
}
