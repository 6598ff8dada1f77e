package integration

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/internal/pki"
	"flightalliance/tests/framework"
)

// TestTokenChangeWithoutRestart changes a running alliance's token as README says, no process
// restarted: the search server first trusts both tokens (a second line in its trust file,
// SIGHUP); then each machine in turn reads its token file again on SIGHUP, three times over —
// "old, new" (it sends the old token and accepts both), "new, old", "new" — and the old line
// leaves the trust file (SIGHUP). Searches go through the search server every 50 ms to an
// alliance that caches nothing (every search asks the holders over the IntraClusterService, with
// the delegate's token of the moment), and 4 clients book, cancel and read seats.
//
// After every SIGHUP every machine must accept every token some machine sends, and searches must
// go on; every search answer must be complete and equal to the reference, the booking history
// linearizable, etcd's counters equal to the live bookings, and the membership watch must hold.
// At the end the old token opens nothing — no machine's IntraClusterService, no registration —
// and the delegate's registrations, with the new one, go on.
func TestTokenChangeWithoutRestart(t *testing.T) {
	dir := t.TempDir()
	old, _ := framework.AllianceToken(t, "star")
	renewed := pki.Token()
	tokenFile, trustFile := filepath.Join(dir, "star.token"), filepath.Join(dir, "trust")
	writeSecret(t, tokenFile, old)
	writeSecret(t, trustFile, "star "+old)
	var flights []flight.Flight
	// The last --token-file and --trust on a command line are the ones in force.
	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}},
		allianceOpts{extra: []string{"--token-file", tokenFile, "--cache-mib", "0", "--flights-cache", "0"}},
		fewSeats(&flights), "--registration-ttl", "10s", "--trust", trustFile, "--answer-cache", "0")
	searches, bookings := w.startLoads(flights)
	w.reloadTrust(t, trustFile, "star "+old+"\nstar "+renewed, 1)
	sends := map[string]string{} // the token each machine sends
	for _, n := range w.a.order {
		sends[n] = old
	}
	for step, tokens := range [][]string{{old, renewed}, {renewed, old}, {renewed}} {
		writeSecret(t, tokenFile, strings.Join(tokens, "\n"))
		for _, n := range w.a.order {
			at := time.Now()
			w.hangUp(t, n, step+1)
			sends[n] = tokens[0]
			var sent []string
			for _, m := range w.a.order {
				sent = append(sent, sends[m])
			}
			w.acceptEveryToken(t, "after "+n+" read "+strings.Join(name(tokens, old, renewed), ", "), sent...)
			framework.Eventually(t, 10*time.Second, "searches after the SIGHUP", func() error {
				if got := len(searches.since(at)); got < 20 {
					return fmt.Errorf("%d searches answered since", got)
				}
				return nil
			})
		}
	}
	inForce := w.reloadTrust(t, trustFile, "star "+renewed, 2)
	w.waitRegisteredAfter(t, inForce)
	answers := searches.finish()
	bookings.finish(t, time.Minute)
	expectAllComplete(t, answers, 3*len(w.a.order), "a change of token")
	w.onlyTokenOpens(t, renewed, old)
}

// name names tokens "old" and "new" for the log (never the tokens themselves).
func name(tokens []string, old, renewed string) []string {
	var out []string
	for _, tok := range tokens {
		out = append(out, map[string]string{old: "old", renewed: "new"}[tok])
	}
	return out
}
