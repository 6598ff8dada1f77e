package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestNetworkSetsTheTimersTogether: --network lan is exactly the timers' former defaults,
// --network wan the settings for machines 200 ms apart, a timer given explicitly (on the command
// line or by its variable) wins over its network's value, and a network unknown is refused
// naming --network.
func TestNetworkSetsTheTimersTogether(t *testing.T) {
	type timers struct{ heartbeat, election, sessionTTL, hedgeAfter, callTimeout time.Duration }
	of := func(c config) timers {
		return timers{c.heartbeat, c.election, c.sessionTTL, c.hedgeAfter, c.callTimeout}
	}
	lan := timers{100 * time.Millisecond, time.Second, 3 * time.Second, 150 * time.Millisecond, 2 * time.Second}
	wan := timers{200 * time.Millisecond, 2 * time.Second, 6 * time.Second, 500 * time.Millisecond, 5 * time.Second}
	for _, tc := range []struct {
		name    string
		args    []string
		environ []string
		want    timers
	}{
		{"no --network: the former defaults", nil, nil, lan},
		{"lan", []string{"--network", "lan"}, nil, lan},
		{"wan", []string{"--network", "wan"}, nil, wan},
		{"wan from the environment", nil, []string{"FA_AIRLINE_NETWORK=wan"}, wan},
		{"an explicit flag wins", []string{"--network", "wan", "--hedge-after", "700ms"}, []string{"FA_AIRLINE_CALL_TIMEOUT=9s"},
			timers{200 * time.Millisecond, 2 * time.Second, 6 * time.Second, 700 * time.Millisecond, 9 * time.Second}},
		{"an explicit flag at lan's value wins too", []string{"--network", "wan", "--heartbeat", "100ms"}, nil,
			timers{100 * time.Millisecond, 2 * time.Second, 6 * time.Second, 500 * time.Millisecond, 5 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseConfig(append([]string{"--name", "m1"}, tc.args...), tc.environ, new(bytes.Buffer))
			if err != nil {
				t.Fatal(err)
			}
			if got := of(c); got != tc.want {
				t.Errorf("timers %+v, want %+v", got, tc.want)
			}
			if got, want := c.origins.Of("session-ttl").String(), "default of --network wan"; tc.want.sessionTTL == wan.sessionTTL && got != want {
				t.Errorf("--session-ttl from %q, want %q (as --check-config prints it)", got, want)
			}
			if w := timerWarnings(c); len(w) > 0 {
				t.Errorf("warnings: %q", w)
			}
			m := allianceConfig(c, nil)
			if m.SessionTTL != tc.want.sessionTTL || m.HedgeAfter != tc.want.hedgeAfter || m.CallTimeout != tc.want.callTimeout ||
				m.Member.TickMs != uint(tc.want.heartbeat/time.Millisecond) || m.Member.ElectionMs != uint(tc.want.election/time.Millisecond) {
				t.Errorf("the machine's timers differ from the command line's: %+v", m)
			}
		})
	}
	// lan's values are the flags' defaults, as --help and the reference show them.
	c, err := parseConfig(nil, nil, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	for flagName, v := range map[string]time.Duration{"heartbeat": lan.heartbeat, "election-timeout": lan.election,
		"session-ttl": lan.sessionTTL, "hedge-after": lan.hedgeAfter, "call-timeout": lan.callTimeout} {
		if got := c.flags.Lookup(flagName).DefValue; got != v.String() {
			t.Errorf("--%s's default %s, want %s", flagName, got, v)
		}
	}

	for _, tc := range []struct {
		args    []string
		environ []string
		want    string
	}{
		{[]string{"--network", "moon"}, nil, `--network: "moon", want lan or wan`},
		{nil, []string{"FA_AIRLINE_NETWORK=LAN"}, `--network: "LAN", want lan or wan (from FA_AIRLINE_NETWORK)`},
	} {
		if _, err := parseConfig(tc.args, tc.environ, new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %q: error %v, want one saying %q", tc.args, tc.environ, err, tc.want)
		}
	}
}
