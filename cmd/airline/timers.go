package main

import (
	"fmt"
	"time"
)

// etcd's own limits on its raft timers: an election timeout of at least 5 heartbeats (etcd
// refuses fewer) and at most 50 s.
const (
	minElectionHeartbeats = 5
	maxElectionTimeout    = 50 * time.Second
)

// checkRaftTimers refuses --heartbeat and --election-timeout values etcd would refuse, or would
// silently truncate (etcd counts whole milliseconds), naming the flag.
func checkRaftTimers(heartbeat, election time.Duration) error {
	for _, t := range []struct {
		flag  string
		value time.Duration
	}{{"--heartbeat", heartbeat}, {"--election-timeout", election}} {
		switch {
		case t.value <= 0:
			return fmt.Errorf("%s: %v, want a positive duration such as 100ms", t.flag, t.value)
		case t.value%time.Millisecond != 0:
			return fmt.Errorf("%s: %v is not a whole number of milliseconds", t.flag, t.value)
		}
	}
	switch {
	case election < minElectionHeartbeats*heartbeat:
		return fmt.Errorf("--election-timeout: %v is less than %d × --heartbeat %v (etcd's minimum; its rule of thumb is 10 ×)",
			election, minElectionHeartbeats, heartbeat)
	case election > maxElectionTimeout:
		return fmt.Errorf("--election-timeout: %v is more than etcd's limit of %v", election, maxElectionTimeout)
	}
	return nil
}

// timerWarnings are the command line's timers that work against its raft timers: the start
// logs them, and still runs. The defaults raise none; --heartbeat and --election-timeout raised
// for long round trips without the others do.
func timerWarnings(c config) []string {
	var out []string
	if c.sessionTTL < 3*c.election {
		out = append(out, fmt.Sprintf("--session-ttl %v is less than 3 × --election-timeout %v: an etcd leader election can outlast "+
			"the lease and end this machine's session (its sellers are then re-placed); raise --session-ttl", c.sessionTTL, c.election))
	}
	if c.hedgeAfter < c.heartbeat {
		out = append(out, fmt.Sprintf("--hedge-after %v is less than --heartbeat %v (about the round trip between machines): "+
			"a search call to another machine is hedged before it can answer; raise --hedge-after to about 2 round trips", c.hedgeAfter, c.heartbeat))
	}
	return out
}
