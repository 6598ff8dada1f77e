package main

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestConfigRefusesBadFlags: every command line the config step refuses is refused with an error
// naming the flag, before anything is built or started; the flag package's own refusals are
// flagErrors, already explained on the output with the usage.
func TestConfigRefusesBadFlags(t *testing.T) {
	dir := t.TempDir()
	open := filepath.Join(dir, "open.token")
	if err := os.WriteFile(open, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args        []string
		want        string
		flagPackage bool // refused by the flag package, which has written want on the output
	}{
		{[]string{"--log-level", "loud"}, "--log-level", false},
		{[]string{"--cache-mib", "-1"}, "--cache-mib: -1, want 0 (no cache) to 16777216", false},
		{[]string{"--cache-mib", "99999999999"}, "--cache-mib: 99999999999", false},
		{[]string{"--cache-mib", "lots"}, "-cache-mib", true},
		{[]string{"--seller", "LY"}, "--seller", false},
		{[]string{"--seller", "=LY.csv"}, "--seller", false},
		{[]string{"--seller", "LY=a.csv,LY=b.csv"}, "--seller: LY given twice", false},
		{[]string{"--tls-key", "k.pem"}, "--tls-cert", false},
		{[]string{"--tls-cert", "c.pem"}, "--tls-key", false},
		{[]string{"--tls-ca", "ca.pem"}, "--tls-ca", false},
		{[]string{"--token-file", filepath.Join(dir, "missing")}, "token-file", false},
		{[]string{"--token-file", open}, "token-file", false},
		{[]string{"--name", "m1", "extra"}, `unexpected argument "extra"`, false},
		{[]string{"--replicas", "6"}, "--replicas: 6, want 1 to 5", false},
		{[]string{"--replicas", "-1"}, "--replicas", false},
		{[]string{"--replicas", "0"}, "--replicas: 0, want 1 to 5", false},
		{[]string{"--peers", "m1=http://a:1,m2=http://b:1", "--peer-zones", "m1=a"}, "--peer-zones: m2 of --peers has no zone", false},
		{[]string{"--peers", "m1=http://a:1", "--peer-zones", "m1=a,m9=b"}, "--peer-zones: m9 is not a member of --peers", false},
		{[]string{"--peer-zones", "m1"}, "--peer-zones", false},
		{[]string{"--peer-zones", "m1=a,m1=b"}, "--peer-zones: m1 given twice", false},
		{[]string{"--name", "m1", "--zone", "b", "--peers", "m1=http://a:1", "--peer-zones", "m1=a"}, "--zone b", false},
		{[]string{"--heartbeat", "0s"}, "--heartbeat: 0s, want a positive duration", false},
		{[]string{"--heartbeat", "-100ms"}, "--heartbeat", false},
		{[]string{"--heartbeat", "100.5ms"}, "--heartbeat: 100.5ms is not a whole number of milliseconds", false},
		{[]string{"--election-timeout", "0s"}, "--election-timeout: 0s, want a positive duration", false},
		{[]string{"--election-timeout", "1500500us"}, "--election-timeout: 1.5005s is not a whole number of milliseconds", false},
		{[]string{"--heartbeat", "300ms"}, "--election-timeout: 1s is less than 5 × --heartbeat 300ms", false},
		{[]string{"--heartbeat", "200ms", "--election-timeout", "999ms"}, "--election-timeout: 999ms is less than 5 × --heartbeat 200ms", false},
		{[]string{"--heartbeat", "5s", "--election-timeout", "51s"}, "--election-timeout: 51s is more than etcd's limit of 50s", false},
		{[]string{"--heartbeat", "200"}, "-heartbeat", true},
		{[]string{"--max-voters", "many"}, "-max-voters", true},
		{[]string{"--max-voters", "0"}, "--max-voters: 0, want 1 or more", false},
		{[]string{"--max-voters", "-3"}, "--max-voters: -3, want 1 or more", false},
		{[]string{"--dead-member-grace", "-5s"}, "--dead-member-grace: -5s, want a positive duration", false},
		{[]string{"--dead-member-grace", "0s"}, "--dead-member-grace: 0s, want a positive duration", false},
		{[]string{"--etcd-start-timeout", "-1s"}, "--etcd-start-timeout: -1s, want 0", false},
		{[]string{"--session-ttl", "3"}, "-session-ttl", true},
		{[]string{"--no-such-flag"}, "-no-such-flag", true},
	} {
		var out bytes.Buffer
		_, err := parseConfig(tc.args, nil, &out)
		var refused flagError
		switch {
		case err == nil:
			t.Errorf("%v: accepted", tc.args)
		case errors.As(err, &refused) != tc.flagPackage:
			t.Errorf("%v: %v; refused by the flag package: %v, want %v", tc.args, err, !tc.flagPackage, tc.flagPackage)
		case tc.flagPackage && !strings.Contains(out.String(), tc.want):
			t.Errorf("%v: the flag package wrote %q, which does not mention %q", tc.args, out.String(), tc.want)
		case !tc.flagPackage && (!strings.Contains(err.Error(), tc.want) || out.Len() > 0):
			t.Errorf("%v: %v (output %q), want an error mentioning %q and no output", tc.args, err, out.String(), tc.want)
		}
	}
}

// TestConfigBuildsTheMachine: a command line with defaults left alone becomes the machine the
// flags' help promises, and the advertised addresses, TLS and a disabled cache reach the
// machine's configuration.
func TestConfigBuildsTheMachine(t *testing.T) {
	c, err := parseConfig([]string{"--name", "m1", "--alliance", "star", "--seller", "LY=ly.csv", "--seller", "UA=ua.csv",
		"--join", "http://a:1,http://b:2", "--join", "http://c:3"}, nil, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	cfg := allianceConfig(c, nil)
	m := cfg.Member
	switch {
	case cfg.Name != "m1" || m.Name != "m1" || cfg.Alliance != "star" || m.ClusterToken != "flightalliance-star":
		t.Errorf("names: %q %q %q %q", cfg.Name, m.Name, cfg.Alliance, m.ClusterToken)
	case len(cfg.Sellers) != 2 || cfg.Sellers["LY"] != "ly.csv" || cfg.Sellers["UA"] != "ua.csv":
		t.Errorf("sellers: %v", cfg.Sellers)
	case strings.Join(m.Join, " ") != "http://a:1 http://b:2 http://c:3" || cfg.SearchURLs != nil:
		t.Errorf("join %q, search %q", m.Join, cfg.SearchURLs)
	case m.DataDir != "var/m1" || cfg.Listen != "127.0.0.1:8101" || cfg.CacheSize != 0 || cfg.CacheBytes != 1<<30 || m.MaxVoters != 5:
		t.Errorf("defaults: data dir %q, listen %q, cache %d answers (want 0: the alliance's default, no flag), %d bytes, voters %d", m.DataDir, cfg.Listen, cfg.CacheSize, cfg.CacheBytes, m.MaxVoters)
	case m.PeerURL != "http://127.0.0.1:2381" || m.ListenPeerURL != m.PeerURL || m.ClientURL != "http://127.0.0.1:2391" || m.ListenClientURL != m.ClientURL:
		t.Errorf("etcd URLs: %q %q %q %q", m.PeerURL, m.ListenPeerURL, m.ClientURL, m.ListenClientURL)
	case cfg.Token != "" || cfg.TLS.Enabled() || m.StartTimeout < 50*365*24*time.Hour:
		t.Errorf("token %q, TLS %+v, start timeout %s", cfg.Token, cfg.TLS, m.StartTimeout)
	case m.TickMs != 100 || m.ElectionMs != 1000:
		t.Errorf("etcd's heartbeat %dms and election timeout %dms, want etcd's defaults 100ms and 1000ms", m.TickMs, m.ElectionMs)
	}
	if w := timerWarnings(c); len(w) > 0 {
		t.Errorf("the defaults warn: %q", w)
	}

	token := filepath.Join(t.TempDir(), "alliance.token")
	if err := os.WriteFile(token, []byte(" secret \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err = parseConfig([]string{"--name", "m2", "--tls-cert", "c.pem", "--tls-key", "k.pem", "--cache-mib", "0",
		"--peer-listen", "0.0.0.0:2381", "--peer-advertise", "m2.example:2381", "--etcd-start-timeout", "1m", "--token-file", token}, nil, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	cfg = allianceConfig(c, nil)
	m = cfg.Member
	switch {
	case m.PeerURL != "https://m2.example:2381" || m.ListenPeerURL != "https://0.0.0.0:2381" || m.ClientURL != "https://127.0.0.1:2391":
		t.Errorf("etcd URLs: %q %q %q", m.PeerURL, m.ListenPeerURL, m.ClientURL)
	case cfg.CacheBytes >= 0:
		t.Errorf("--cache-mib 0: alliance cache bytes %d, want negative (disabled)", cfg.CacheBytes)
	case cfg.Token != "secret" || len(cfg.AlsoAccepted) != 0 || m.StartTimeout != time.Minute:
		t.Errorf("token %q (also accepted: %d), start timeout %s", cfg.Token, len(cfg.AlsoAccepted), m.StartTimeout)
	}

	// While the alliance changes its token: the first line is sent, the others accepted too.
	if err := os.WriteFile(token, []byte("next\n secret \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err = parseConfig([]string{"--name", "m2", "--token-file", token}, nil, new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	if cfg = allianceConfig(c, nil); cfg.Token != "next" || !slices.Equal(cfg.AlsoAccepted, []string{"secret"}) {
		t.Errorf("a token file of two lines: token %q, also accepted %q; want next, then secret", cfg.Token, cfg.AlsoAccepted)
	}
}

// TestZoneComesFromThePeerList: a machine named in --peer-zones runs in that zone without --zone,
// and both its placement and its etcd member know it.
func TestZoneComesFromThePeerList(t *testing.T) {
	c, err := parseConfig([]string{"--name", "m2", "--alliance", "star", "--peers", "m1=http://127.0.0.1:1,m2=http://127.0.0.1:2",
		"--peer-zones", "m1=eu,m2=us", "--replicas", "3"}, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg := allianceConfig(c, slog.New(slog.DiscardHandler))
	if cfg.Zone != "us" || cfg.Member.Zone != "us" || cfg.Member.PeerZones["m1"] != "eu" || cfg.Replicas != 3 {
		t.Errorf("zone %q, member zone %q, peer zones %v, replicas %d", cfg.Zone, cfg.Member.Zone, cfg.Member.PeerZones, cfg.Replicas)
	}
}

// TestTimersAcrossRegions: the raft timers of a command line for machines 200 ms apart reach the
// etcd member, and the timers left at their defaults beside them are named at the start, with
// what to raise; raised too, nothing is.
func TestTimersAcrossRegions(t *testing.T) {
	wan := []string{"--name", "m1", "--alliance", "star", "--heartbeat", "200ms", "--election-timeout", "2s"}
	c, err := parseConfig(wan, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if m := allianceConfig(c, nil).Member; m.TickMs != 200 || m.ElectionMs != 2000 {
		t.Errorf("etcd's heartbeat %dms and election timeout %dms, want 200ms and 2000ms", m.TickMs, m.ElectionMs)
	}
	warnings := strings.Join(timerWarnings(c), "\n")
	for _, want := range []string{"--session-ttl 3s is less than 3 × --election-timeout 2s", "--hedge-after 150ms is less than --heartbeat 200ms"} {
		if !strings.Contains(warnings, want) {
			t.Errorf("warnings %q do not say %q", warnings, want)
		}
	}

	c, err = parseConfig(append(wan, "--session-ttl", "6s", "--hedge-after", "400ms"), nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if w := timerWarnings(c); len(w) > 0 {
		t.Errorf("timers raised with the round trip still warn: %q", w)
	}
}
