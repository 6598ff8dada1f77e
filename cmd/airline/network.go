package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// networkTimers are the airline server's timers that follow the round trip between the
// alliance's machines: --network sets them together, so that running across regions is one
// flag, not five to keep in step. A flag given explicitly still wins over its network's value.
type networkTimers struct {
	heartbeat   time.Duration // --heartbeat
	election    time.Duration // --election-timeout
	sessionTTL  time.Duration // --session-ttl
	hedgeAfter  time.Duration // --hedge-after
	callTimeout time.Duration // --call-timeout
}

// networks are the settings of --network, by name; lan's are the flags' defaults.
//
// lan: machines a millisecond or less apart (one data centre). etcd's defaults (100ms heartbeat,
// 1s election timeout) with a 3s lease, three election timeouts; a holder is hedged after 150ms,
// well past a search's own time there; a call may take 2s.
//
// wan: machines about 200 ms apart (a round trip such as New York–Tokyo), the settings
// BenchmarkAcrossContinents measures:
//   - heartbeat 200ms: etcd's tuning guide, about the largest round trip between members;
//   - election timeout 2s: etcd's guide, about 10 × the heartbeat; left at 1s, five round trips
//     of delay on one link start an election, and every election stops bookings and rounds;
//   - session TTL 6s: 3 × the election timeout, or replacing a dead leader can outlast the
//     lease and the machine's sellers are re-placed for nothing (etcd's floor is 1.5 ×);
//   - hedge after 500ms: a call to another machine takes a round trip at the least, below which
//     every search call to another holder is hedged; about 2–3 round trips;
//   - call timeout 5s: every call to another machine, a seller's transfer page (about a
//     megabyte) among them, whose new connection's TLS handshake and TCP slow start take several
//     round trips; 2s is only ten.
//
// --dead-member-grace (10s, fifty round trips) is the same on both.
var networks = map[string]networkTimers{
	"lan": {heartbeat: 100 * time.Millisecond, election: time.Second, sessionTTL: 3 * time.Second,
		hedgeAfter: 150 * time.Millisecond, callTimeout: 2 * time.Second},
	"wan": {heartbeat: 200 * time.Millisecond, election: 2 * time.Second, sessionTTL: 6 * time.Second,
		hedgeAfter: 500 * time.Millisecond, callTimeout: 5 * time.Second},
}

// defaultNetwork is --network's default: today's timers.
const defaultNetwork = "lan"

// networkHelp is --network's usage.
var networkHelp = fmt.Sprintf("round trip between the alliance's machines, %s: sets --heartbeat, --election-timeout, --session-ttl, --hedge-after and --call-timeout together (wan: %s); a flag given explicitly still wins",
	networkNames(), networkValues("wan"))

// networkFlags are the flags of network name, "flag-name value" each, for daemonconfig.Preset.
// An unknown name is refused naming --network.
func networkFlags(name string) (map[string]string, error) {
	n, ok := networks[name]
	if !ok {
		return nil, fmt.Errorf("--network: %q, want %s", name, networkNames())
	}
	return map[string]string{
		"heartbeat":        n.heartbeat.String(),
		"election-timeout": n.election.String(),
		"session-ttl":      n.sessionTTL.String(),
		"hedge-after":      n.hedgeAfter.String(),
		"call-timeout":     n.callTimeout.String(),
	}, nil
}

// networkNames are the networks' names for messages: "lan or wan".
func networkNames() string {
	return strings.Join(slices.Sorted(maps.Keys(networks)), " or ")
}

// networkValues are network name's flags for a usage: "--call-timeout 5s, --election-timeout 2s, ...".
func networkValues(name string) string {
	flags, _ := networkFlags(name)
	var out []string
	for _, f := range slices.Sorted(maps.Keys(flags)) {
		out = append(out, "--"+f+" "+flags[f])
	}
	return strings.Join(out, ", ")
}
