package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// writeConf writes a config file of lines into dir and returns its path.
func writeConf(t *testing.T, dir string, lines ...string) string {
	t.Helper()
	file := filepath.Join(dir, "airline.conf")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestConfigFromEnvironmentAndFile: every flag may come from FA_AIRLINE_<FLAG> or the --config
// file (named by the command line or FA_AIRLINE_CONFIG), the command line winning over the
// environment and the environment over the file, a repeatable flag's values taken whole from one
// of them; and what they give reaches the machine as the command line's would.
func TestConfigFromEnvironmentAndFile(t *testing.T) {
	dir := t.TempDir()
	conf := writeConf(t, dir,
		"# machine m1 of star",
		"name m1",
		"alliance star",
		"peer-listen 0.0.0.0:2381   # every interface",
		"seller LY=ly.csv",
		"seller UA=ua.csv",
		"join http://a:1",
		"session-ttl 4s",
		"force-new-cluster",
	)
	for _, tc := range []struct {
		name    string
		args    []string
		environ []string
		check   func(t *testing.T, c config)
	}{
		{"file alone", []string{"--config", conf}, nil, func(t *testing.T, c config) {
			if c.name != "m1" || c.alliance != "star" || c.peerListen != "0.0.0.0:2381" || c.sessionTTL != 4*time.Second || !c.forceNewCluster ||
				len(c.sellers) != 2 || c.sellers["UA"] != "ua.csv" || !slices.Equal(c.join, []string{"http://a:1"}) {
				t.Errorf("%+v", c)
			}
		}},
		{"file named by FA_AIRLINE_CONFIG", nil, []string{"FA_AIRLINE_CONFIG=" + conf}, func(t *testing.T, c config) {
			if c.name != "m1" || c.origins.Of("name").String() != conf+":2" || c.origins.Of("config").String() != "FA_AIRLINE_CONFIG" {
				t.Errorf("name %q from %s, config from %s", c.name, c.origins.Of("name"), c.origins.Of("config"))
			}
		}},
		{"environment over file", []string{"--config", conf},
			[]string{"FA_AIRLINE_NAME=m2", "FA_AIRLINE_SELLER=AF=af.csv,KL=kl.csv", "FA_AIRLINE_JOIN=http://b:1,http://c:1", "FA_AIRLINE_SESSION_TTL=6s",
				"FA_AIRLINE_FORCE_NEW_CLUSTER=false", "FA_AIRLINE_LOG_FORMAT=json", "FA_AIRLINE_PROBE_LISTEN=0.0.0.0:8102"},
			func(t *testing.T, c config) {
				if c.name != "m2" || c.alliance != "star" || c.sessionTTL != 6*time.Second || c.forceNewCluster || c.logFormat != "json" ||
					c.probeListen != "0.0.0.0:8102" || len(c.sellers) != 2 || c.sellers["KL"] != "kl.csv" || !slices.Equal(c.join, []string{"http://b:1", "http://c:1"}) {
					t.Errorf("%+v", c)
				}
				if m := allianceConfig(c, nil); m.Member.Name != "m2" || m.Member.DataDir != "var/m2" || m.SessionTTL != 6*time.Second {
					t.Errorf("the machine: member %q, data dir %q, session TTL %v", m.Member.Name, m.Member.DataDir, m.SessionTTL)
				}
			}},
		{"command line over both", []string{"--config", conf, "--name", "m3", "--seller", "BA=ba.csv"},
			[]string{"FA_AIRLINE_NAME=m2", "FA_AIRLINE_SELLER=AF=af.csv"},
			func(t *testing.T, c config) {
				if c.name != "m3" || len(c.sellers) != 1 || c.sellers["BA"] != "ba.csv" || c.peerListen != "0.0.0.0:2381" {
					t.Errorf("%+v", c)
				}
			}},
		{"the test harnesses' FA_AIRLINE_FLAGS is left alone", []string{"--name", "m1"}, []string{"FA_AIRLINE_FLAGS=--hedge-after 2s"},
			func(t *testing.T, c config) {
				if c.hedgeAfter != 150*time.Millisecond {
					t.Errorf("hedge-after %v", c.hedgeAfter)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseConfig(tc.args, tc.environ, new(bytes.Buffer))
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, c)
		})
	}
}

// TestConfigRefusesTyposAndBadValuesFromEnvironmentAndFile: a variable or a name in the file
// that is no flag's, and a value refused — by the flag package or by a later check — name the
// variable or the file's line, and the flag.
func TestConfigRefusesTyposAndBadValuesFromEnvironmentAndFile(t *testing.T) {
	dir := t.TempDir()
	conf := func(lines ...string) string { return writeConf(t, t.TempDir(), lines...) }
	typo := conf("name m1", "cahce-size 10")
	badValue := conf("name m1", "", "session-ttl 3")
	badCheck := conf("replicas 9")
	twice := conf("listen a:1", "listen b:1")
	for _, tc := range []struct {
		args    []string
		environ []string
		want    string
	}{
		{nil, []string{"FA_AIRLINE_CAHCE_SIZE=10"}, "FA_AIRLINE_CAHCE_SIZE: no flag has this environment variable"},
		{[]string{"--cache-mib", "1"}, []string{"FA_AIRLINE_NAMES=m1"}, "FA_AIRLINE_NAMES: no flag"},
		{nil, []string{"FA_AIRLINE_SESSION_TTL=3"}, `FA_AIRLINE_SESSION_TTL: --session-ttl: invalid value "3"`},
		{nil, []string{"FA_AIRLINE_REPLICAS=9"}, "--replicas: 9, want 1 to 5 (from FA_AIRLINE_REPLICAS)"},
		{nil, []string{"FA_AIRLINE_SELLER=LY"}, `--seller: "LY" is not CODE=path (from FA_AIRLINE_SELLER)`},
		{nil, []string{"FA_AIRLINE_LOG_FORMAT=xml"}, `--log-format: "xml", want json or text (from FA_AIRLINE_LOG_FORMAT)`},
		{nil, []string{"FA_AIRLINE_PROBE_LISTEN=8102"}, "--probe-listen: \"8102\" is not host:port"},
		{[]string{"--probe-listen", "127.0.0.1:8101"}, nil, "--probe-listen: 127.0.0.1:8101 is also --listen"},
		{nil, []string{"FA_AIRLINE_TOKEN_FILE=" + filepath.Join(dir, "missing")}, "--token-file: open " + filepath.Join(dir, "missing") + ": no such file or directory (from FA_AIRLINE_TOKEN_FILE)"},
		{[]string{"--config", typo}, nil, typo + `:2: "cahce-size" is not a flag`},
		{[]string{"--config", badValue}, nil, badValue + `:3: --session-ttl: invalid value "3"`},
		{[]string{"--config", badCheck}, nil, "--replicas: 9, want 1 to 5 (from " + badCheck + ":1)"},
		{[]string{"--config", twice}, nil, twice + ":2: --listen: given again"},
		{[]string{"--config", filepath.Join(dir, "none.conf")}, nil, "--config: open "},
	} {
		_, err := parseConfig(tc.args, tc.environ, new(bytes.Buffer))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q with %q: %v, want an error saying %q", tc.args, tc.environ, err, tc.want)
		}
	}
}
