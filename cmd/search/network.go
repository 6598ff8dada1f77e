package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// networks are the settings of --network, by name: the search server's timers that follow the
// round trip between it and the alliances' delegates (only --hedge-delay: the others are far
// above a round trip on either). lan's are the flags' defaults; a flag given explicitly still
// wins over its network's value.
//
// --hedge-delay: a cold search costs the search server two round trips (to the delegate, and
// the delegate's to the holders); below that, every cold search also asks an alternate, twice
// the work for the alliance. lan: 300ms, well past a cold search there. wan (about 200 ms
// apart, the airline server's --network wan): 800ms, as BenchmarkAcrossContinents measures.
//
// --delegate-timeout (3s) and --booking-timeout (10s) are the same on both: fifteen and fifty
// round trips at 200 ms. The order gate (--ordered-searches) needs no setting: it steps aside by
// itself when turns are held for round trips.
var networks = map[string]struct{ hedgeDelay time.Duration }{
	"lan": {hedgeDelay: 300 * time.Millisecond},
	"wan": {hedgeDelay: 800 * time.Millisecond},
}

// defaultNetwork is --network's default: today's timers.
const defaultNetwork = "lan"

// networkHelp is --network's usage.
var networkHelp = fmt.Sprintf("round trip between this server and the alliances' delegates, %s: sets --hedge-delay (wan: %s); a flag given explicitly still wins",
	networkNames(), networks["wan"].hedgeDelay)

// networkFlags are the flags of network name, "flag-name value" each, for daemonconfig.Preset.
func networkFlags(name string) (map[string]string, error) {
	n, ok := networks[name]
	if !ok {
		return nil, fmt.Errorf("%q, want %s", name, networkNames())
	}
	return map[string]string{"hedge-delay": n.hedgeDelay.String()}, nil
}

// networkNames are the networks' names for messages: "lan or wan".
func networkNames() string {
	return strings.Join(slices.Sorted(maps.Keys(networks)), " or ")
}
