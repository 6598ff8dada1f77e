package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// errNoProxyd says the run has no proxy daemon, so nothing can be partitioned.
var errNoProxyd = errors.New("this run has no proxies (it was started with --proxies=false); partition and heal need `up --proxies`")

// proxydCall sends a request to the run's proxy daemon and decodes a 200 answer into out.
func proxydCall(ctx context.Context, s *State, method, path string, body, out any) error {
	pd := s.proxyd()
	if pd == nil {
		return errNoProxyd
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, pd.URL()+path, rd)
	if err != nil {
		return err
	}
	resp, err := newHTTPClient(10 * time.Second).Do(req)
	if err != nil {
		if inspect(*pd) == procGone {
			return fmt.Errorf("the proxy daemon (pid %d) is not running (`restart %s` starts it again, without partitions): %w",
				pd.Pid, pd.Name, err)
		}
		return fmt.Errorf("proxy daemon: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return fmt.Errorf("proxy daemon: %s %s: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error string }
		if json.Unmarshal(b, &e) == nil && e.Error != "" {
			return fmt.Errorf("proxy daemon: %s", e.Error)
		}
		return fmt.Errorf("proxy daemon: %s %s: %s", method, path, resp.Status)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

// proxiesStatus asks the proxy daemon about every machine's proxies.
func proxiesStatus(ctx context.Context, s *State) ([]machineNet, error) {
	var ms []machineNet
	err := proxydCall(ctx, s, http.MethodGet, "/ctl/machines", nil, &ms)
	return ms, err
}

// waitProxyd polls the proxy daemon's control API until it answers, and fails early with its
// log if it exits.
func waitProxyd(ctx context.Context, p Proc, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := newHTTPClient(2 * time.Second)
	for {
		var ms []machineNet
		err := getJSON(ctx, c, p.URL()+"/ctl/machines", &ms)
		if err == nil {
			return nil
		}
		if inspect(p) == procGone {
			return fmt.Errorf("%s (pid %d) exited; last lines of %s:\n%s", p.Name, p.Pid, p.Log, logTail(p.Log, 3000))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the proxy daemon did not answer on %s within %v: %v (log %s)", p.URL(), timeout, err, p.Log)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// selfBinary is a path of this alliancectl binary that outlives this process, for the proxy
// daemon it starts: `go run` deletes its build when it exits, so such a build is copied into
// the run directory first.
func selfBinary(dir string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding the alliancectl binary for the proxy daemon: %w", err)
	}
	if !strings.Contains(exe, "go-build") {
		return exe, nil
	}
	src, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer src.Close()
	dst := filepath.Join(dir, "bin", "alliancectl")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "alliancectl.*")
	if err != nil {
		return "", err
	}
	_, err = io.Copy(tmp, src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o755)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("copying %s to %s for the proxy daemon: %w", exe, dst, err)
	}
	return dst, nil
}
