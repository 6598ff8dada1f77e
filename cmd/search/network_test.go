package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestNetworkSetsTheHedgeDelay: --network lan is the former default, wan the setting for
// delegates 200 ms away, an explicit --hedge-delay wins, and a network unknown is refused naming
// --network.
func TestNetworkSetsTheHedgeDelay(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		environ []string
		want    time.Duration
	}{
		{nil, nil, 300 * time.Millisecond},
		{[]string{"--network", "lan"}, nil, 300 * time.Millisecond},
		{[]string{"--network", "wan"}, nil, 800 * time.Millisecond},
		{nil, []string{"FA_SEARCH_NETWORK=wan"}, 800 * time.Millisecond},
		{[]string{"--network", "wan", "--hedge-delay", "1s"}, nil, time.Second},
		{[]string{"--network", "wan"}, []string{"FA_SEARCH_HEDGE_DELAY=300ms"}, 300 * time.Millisecond},
	} {
		c, err := parseConfig(tc.args, tc.environ, new(bytes.Buffer))
		if err != nil {
			t.Fatalf("%q %q: %v", tc.args, tc.environ, err)
		}
		if c.server.HedgeDelay != tc.want {
			t.Errorf("%q %q: hedge delay %s, want %s", tc.args, tc.environ, c.server.HedgeDelay, tc.want)
		}
	}
	c, err := parseConfig(nil, nil, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.flags.Lookup("hedge-delay").DefValue; got != "300ms" {
		t.Errorf("--hedge-delay's default %s, want 300ms (lan's)", got)
	}
	for _, tc := range []struct {
		args    []string
		environ []string
		want    string
	}{
		{[]string{"--network", "moon"}, nil, `"moon", want lan or wan`},
		{nil, []string{"FA_SEARCH_NETWORK=LAN"}, `"LAN", want lan or wan (from FA_SEARCH_NETWORK)`},
	} {
		_, err := parseConfig(tc.args, tc.environ, new(bytes.Buffer))
		u, ok := err.(usage)
		if !ok || u.flag != "--network" || !strings.Contains(u.err.Error(), tc.want) {
			t.Errorf("%q %q: error %#v, want one of --network saying %q", tc.args, tc.environ, err, tc.want)
		}
	}
}
