package placement

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// A single failure (K and c unchanged) fetches the lost copies — one per seller that had a copy
// on the failed machine — and more only when the balance phase moves a copy whose data a
// surviving machine has (or, rarely, moves one to balance the primaries). That happens only when
// no move or chain of moves of the lost copies (which are fetched anyway) lowers the imbalance,
// and then a copy moves from a machine at least two above the receiver: the lost copies raised
// some loads, and the extra moves pass that load on. TestReplicasSingleFailure asserts that they pass on at most as much as was lost
// (fetched ≤ 2 × lost; measured: about 1% more than lost overall, at most 1.00× in over 30,000
// random single failures) and measures how often a placement of the lost copies alone would have
// kept the bound, trying every placement on the small rounds: rarely, because step 3 places them
// greedily. In principle a cascade (a machine that could relieve only a machine that could
// relieve only the least loaded) could exceed the assertion; none has been seen.

// singleFailure describes a round with exactly one crash and nothing else.
type singleFailure struct {
	survivors map[string][]string // seller → surviving holders before the round
	lost      []string            // sellers whose copy was on the failed machine and survive elsewhere
}

// asSingleFailure recognises a round of one crash with K unchanged and c unchanged (so every
// lost copy needs a new holder), planned by the general planner.
func asSingleFailure(e eventK, s Snapshot) (singleFailure, bool) {
	if e.kind() != "fail×1" || twoCopyModelOf(s) || len(e.before.Machines) == 0 {
		return singleFailure{}, false
	}
	if k := cmp0(s.Replicas); min(k, len(e.before.Machines)) != min(k, len(s.Machines)) {
		return singleFailure{}, false
	}
	sf := singleFailure{survivors: map[string][]string{}}
	var failed Machine
	for _, m := range e.before.Machines {
		if m.Name == e.fail[0] {
			failed = m
			continue
		}
		for _, seller := range slices.Concat(m.Primaries, m.Backups) {
			sf.survivors[seller] = append(sf.survivors[seller], m.Name)
		}
	}
	for _, seller := range slices.Concat(failed.Primaries, failed.Backups) {
		if len(sf.survivors[seller]) > 0 {
			sf.lost = append(sf.lost, seller)
		}
	}
	slices.Sort(sf.lost)
	return sf, true
}

func cmp0(k int) int {
	if k == 0 {
		return 2
	}
	return k
}

// balancedPlacementExists reports whether some placement of the lost copies (each on a
// surviving machine that does not hold the seller, keeping the zone rule), with every surviving
// copy kept, satisfies the balance bound. ok is false when there are too many placements to try.
func balancedPlacementExists(zt zoneTruth, sf singleFailure, limit int) (exists, ok bool) {
	names := slices.Sorted(maps.Keys(zt.zoneOf))
	options := make([][]string, len(sf.lost))
	count := 1
	for i, seller := range sf.lost {
		for _, m := range names {
			if !slices.Contains(sf.survivors[seller], m) && zt.breaks(append(slices.Clone(sf.survivors[seller]), m)) == "" {
				options[i] = append(options[i], m)
			}
		}
		count *= max(1, len(options[i]))
		if count > limit {
			return false, false
		}
	}
	holders := map[string][]string{}
	for seller, list := range sf.survivors {
		holders[seller] = slices.Clone(list)
	}
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(sf.lost) {
			return len(balanceViolations(zt, holders)) == 0
		}
		seller := sf.lost[i]
		for _, m := range options[i] {
			holders[seller] = append(holders[seller], m)
			found := try(i + 1)
			holders[seller] = holders[seller][:len(holders[seller])-1]
			if found {
				return true
			}
		}
		return false
	}
	return try(0), true
}

// TestReplicasSingleFailure plays sequences of single crashes (and joins that make up for them).
func TestReplicasSingleFailure(t *testing.T) {
	var rounds, lost, moved, excessRounds, worst, searched, avoidable int
	worstRatio := 0.0
	rapid.Check(t, func(rt *rapid.T) {
		runSequenceWith(rt, &zonedGenerator{crashes: true}, func(e eventK, s Snapshot, res Result) {
			sf, ok := asSingleFailure(e, s)
			if !ok {
				return
			}
			rounds++
			lost += len(sf.lost)
			moved += len(res.Transfers)
			excess := len(res.Transfers) - len(sf.lost)
			if excess < 0 || excess > len(sf.lost) {
				rt.Fatalf("fetched %d copies for %d lost:\n%s\nbefore:\n%s", len(res.Transfers), len(sf.lost), formatResult(res), formatSnapshot(e.before))
			}
			if excess == 0 {
				return
			}
			excessRounds++
			worst = max(worst, excess)
			worstRatio = max(worstRatio, float64(excess)/float64(len(sf.lost)))
			if exists, ok := balancedPlacementExists(newZoneTruth(s), sf, 20000); ok {
				searched++
				if exists {
					avoidable++
				}
			}
		})
	})
	t.Logf("single failures: %d rounds, %d lost copies, %d fetched; %d rounds fetched more (at most %d more, %.2f× the lost); "+
		"of %d searched exhaustively, %d could have kept the balance bound by placing the lost copies alone",
		rounds, lost, moved, excessRounds, worst, worstRatio, searched, avoidable)
}

// TestReplicasSingleFailureAtScale measures single failures in a settled alliance of 50
// machines in five zones with 500 sellers and K=3: each failure fetches exactly the lost copies.
func TestReplicasSingleFailureAtScale(t *testing.T) {
	base := zonedAlliance(t, 50, 500, 5, 3)
	var report strings.Builder
	for i := 0; i < len(base.Machines); i += 7 {
		s := base
		s.Machines = slices.Delete(slices.Clone(base.Machines), i, i+1)
		res, err := Plan(s)
		if err != nil {
			t.Fatal(err)
		}
		if bad := checkRound(s, res); len(bad) > 0 {
			t.Fatalf("failure of %s: %s", base.Machines[i].Name, strings.Join(bad, "\n"))
		}
		failed := base.Machines[i]
		lost := len(failed.Primaries) + len(failed.Backups)
		fmt.Fprintf(&report, "  %s fails: %d copies lost, %d fetched, %d promotions\n", failed.Name, lost, len(res.Transfers), len(res.Promotions))
		if len(res.Transfers) != lost {
			t.Errorf("failure of %s: fetched %d copies, lost %d", failed.Name, len(res.Transfers), lost)
		}
	}
	t.Logf("50 machines, 500 sellers, K=3, five zones:\n%s", report.String())
}

// TestReplicasMovement measures, per kind of round, the copies fetched against lowerBoundK (the
// fetches any planner must make) and logs them (run with -v); it fails when a round fetches
// fewer than the bound (the bound or the checker would be wrong). It also logs the largest
// spread of BACKUP counts within a zone (totals and primaries within one bound it by two).
func TestReplicasMovement(t *testing.T) {
	type stat struct{ rounds, moved, bound, above, spread, machines, sellers int }
	stats := map[string]*stat{}
	rapid.Check(t, func(rt *rapid.T) {
		runSequenceK(rt, func(e eventK, s Snapshot, res Result) {
			if twoCopyModelOf(s) {
				return
			}
			moved, bound := len(res.Transfers), lowerBoundK(s)
			if moved < bound {
				rt.Fatalf("%s: fetched %d copies, below the lower bound %d", e.kind(), moved, bound)
			}
			kind := roundKind(e)
			st := stats[kind]
			if st == nil {
				st = &stat{}
				stats[kind] = st
			}
			st.rounds++
			st.moved += moved
			st.bound += bound
			if moved > bound {
				st.above++
			}
			st.spread = max(st.spread, backupSpread(s, res))
			st.machines = max(st.machines, len(res.Assignments))
			st.sellers = max(st.sellers, len(res.Lost)+len(newHoldings(res).holders))
		})
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %7s %8s %8s %7s %7s %5s %5s\n", "round", "rounds", "fetched", "bound", "above", "spread", "maxM", "maxS")
	for _, kind := range slices.Sorted(maps.Keys(stats)) {
		st := stats[kind]
		fmt.Fprintf(&b, "%-12s %7d %8d %8d %7d %7d %5d %5d\n", kind, st.rounds, st.moved, st.bound, st.above, st.spread, st.machines, st.sellers)
	}
	t.Logf("copies fetched against the lower bound (above: rounds that fetched more; spread: of BACKUP counts in a zone):\n%s", b.String())
}

// roundKind groups rounds for TestReplicasMovement.
func roundKind(e eventK) string {
	switch {
	case e.bootstrap:
		return "bootstrap"
	case e.replicas != 0:
		return "K change"
	case e.lostZone != "":
		return "zone loss"
	case len(e.fail)+len(e.leave)+len(e.join) == 0:
		return "none"
	case len(e.join) == 0 && len(e.leave) == 0:
		return fmt.Sprintf("fail×%d", min(len(e.fail), 2))
	case len(e.join) == 0 && len(e.fail) == 0:
		return "leave"
	case len(e.fail)+len(e.leave) == 0:
		return "join"
	}
	return "mixed"
}

// backupSpread is the largest difference of BACKUP counts between machines of one zone.
func backupSpread(s Snapshot, res Result) int {
	zt := newZoneTruth(s)
	lo, hi := map[string]int{}, map[string]int{}
	for _, a := range res.Assignments {
		z, n := zt.zoneOf[a.Name], len(a.Backups)
		if _, ok := lo[z]; !ok {
			lo[z], hi[z] = n, n
		}
		lo[z], hi[z] = min(lo[z], n), max(hi[z], n)
	}
	spread := 0
	for z := range lo {
		spread = max(spread, hi[z]-lo[z])
	}
	return spread
}
