package member

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestConfigValidation(t *testing.T) {
	good := Config{Name: "m1", DataDir: "/tmp/x", PeerURL: "http://127.0.0.1:2381", ClientURL: "http://127.0.0.1:2391",
		InitialCluster: "m1=http://127.0.0.1:2381,m2=http://127.0.0.1:2382"}
	c, err := good.normalize()
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxVoters != 5 || c.DeadGrace != 10*time.Second || c.StartTimeout != time.Minute ||
		c.TickMs != 100 || c.ElectionMs != 1000 || c.EtcdLogLevel != "warn" {
		t.Fatalf("defaults: %+v", c)
	}
	for _, tc := range []struct {
		mutate func(*Config)
		names  string
	}{
		{func(c *Config) { c.Name = "" }, `name ""`},
		{func(c *Config) { c.DataDir = "" }, "data dir"},
		{func(c *Config) { c.PeerURL = "127.0.0.1:2381" }, "127.0.0.1:2381"},
		{func(c *Config) { c.ClientURL = "http://127.0.0.1" }, "http://127.0.0.1"},
		{func(c *Config) { c.InitialCluster = "m2=http://127.0.0.1:2382" }, `does not list member "m1"`},
		{func(c *Config) { c.InitialCluster = "m1=http://127.0.0.1:9999" }, "not its peer URL"},
		{func(c *Config) { c.Join = []string{"nope"} }, `"nope"`},
		{func(c *Config) { c.TickMs, c.ElectionMs = 100, 300 }, "300ms"},
	} {
		cfg := good
		tc.mutate(&cfg)
		_, err := cfg.normalize()
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tc.names) {
			t.Errorf("config error %v should be ErrBadConfig naming %s", err, tc.names)
		}
	}
	joinOnly := good
	joinOnly.InitialCluster, joinOnly.Join = "", []string{"http://127.0.0.1:2392"}
	if _, err := joinOnly.normalize(); err != nil {
		t.Fatalf("a join-only config is valid: %v", err)
	}
}

func TestOwnClientURL(t *testing.T) {
	for _, tc := range []struct{ listen, advertised, want string }{
		{"https://127.0.0.1:2391", "https://127.0.0.1:2391", "https://127.0.0.1:2391"},
		{"http://127.0.0.1:2391", "http://127.0.0.1:7001", "http://127.0.0.1:2391"}, // a proxy in front: straight to the member
		{"https://0.0.0.0:2379", "https://m1:2379", "https://m1:2379"},              // a wildcard is no address to dial
		{"https://[::]:2379", "https://m1.star.svc:2379", "https://m1.star.svc:2379"},
	} {
		if got := ownClientURL(Config{ListenClientURL: tc.listen, ClientURL: tc.advertised}); got != tc.want {
			t.Errorf("listen %s, advertised %s: own client URL %s, want %s", tc.listen, tc.advertised, got, tc.want)
		}
	}
}

func TestDataDirParentMustBeWritable(t *testing.T) {
	dir := t.TempDir()
	if err := checkAsideWritable(filepath.Join(dir, "m1")); err != nil {
		t.Errorf("a writable parent refused: %v", err)
	}
	if err := checkAsideWritable(filepath.Join(dir, "missing", "m1")); err != nil {
		t.Errorf("a parent still to be made refused: %v", err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := checkAsideWritable(filepath.Join(file, "m1")) // a parent that cannot be entered (also as root)
	if err == nil || !strings.Contains(err.Error(), "moves its old data aside") {
		t.Errorf("a parent that cannot hold the moved data: %v, want the refusal naming why", err)
	}
}
